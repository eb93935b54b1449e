"""Every operation of the API, through the typed sync client, against a live server.

The bodies are the examples the OpenAPI document carries for each operation
(the README's "Example requests"), sent in the order in which they succeed
one after another on a fresh store; each is validated into its request model
first, and each answer is checked to be the typed model the operation returns.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from praxis_server import PraxisServer
from support import EXAMPLE_SCOPE, SKILL, WRITER_CAPABILITIES, issue_token, openapi_document

from praxis_client import Client, Conflict
from praxis_client import models as m
from praxis_client._operations import OPERATIONS
from praxis_client._transport import Call

DOC = openapi_document()
RECORD_ID = "exp-root-ci-20261120"
DRAFT_ID = "exp-root-ci-draft-20261120"


def example(operation_id: str) -> dict[str, Any]:
    for item in DOC["paths"].values():
        for op in item.values():
            if op.get("operationId") == operation_id:
                body: dict[str, Any] = op["requestBody"]["content"]["application/json"]["example"]
                return body
    raise KeyError(operation_id)


class Spy:
    """Records the operation of every call a client makes."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def watch(self, client: Client) -> Client:
        original = client._transport.call

        def call(c: Call) -> Any:
            self.seen.add(c.operation_id)
            return original(c)

        setattr(client._transport, "call", call)
        return client


@pytest.fixture(scope="module")
def spy() -> Spy:
    return Spy()


@pytest.fixture(scope="module")
def clients(module_server: PraxisServer, spy: Spy) -> Iterator[dict[str, Client]]:
    admin = spy.watch(Client(module_server.url, token_file=module_server.admin_token_file))
    tokens = {
        "writer": issue_token(admin, "triage-bot", WRITER_CAPABILITIES),
        "reviewer": issue_token(admin, "reviewer", ["record_review", "proposal_approve"]),
        "evaluator": issue_token(admin, "grader", ["procedure_evaluate"]),
    }
    made = {"admin": admin, "public": spy.watch(Client(module_server.url))}
    made.update({name: spy.watch(Client(module_server.url, token)) for name, token in tokens.items()})
    yield made
    for client in made.values():
        client.close()


SCOPE: dict[str, Any] = {k: v for k, v in EXAMPLE_SCOPE.items() if v is not None}


def test_every_operation(clients: dict[str, Client], spy: Spy) -> None:
    admin, writer, reviewer = clients["admin"], clients["writer"], clients["reviewer"]
    evaluator, public = clients["evaluator"], clients["public"]

    # Credentials.
    issued = admin.issue(m.IssueCredentialRequest.model_validate(example("issue")))
    assert isinstance(issued, m.TokenResponse)
    assert issued.token.startswith("prx_")
    cred = issued.credential.id
    rotated = admin.rotate(cred, m.EmptyRequest())
    assert isinstance(rotated, m.TokenResponse) and rotated.token != issued.token
    revoked = admin.revoke(cred, m.EmptyRequest.model_validate(example("revoke")))
    assert revoked.credential.status == "revoked"
    assert admin.read_credential(cred).credential.id == cred
    page = admin.list(limit=100)
    assert isinstance(page, m.CredentialPage) and cred in {c.id for c in page.credentials}

    # The attempt ledger.
    policy = writer.set_policy(m.SetPolicyRequest.model_validate(example("set_policy")))
    assert isinstance(policy, m.PolicyResponse) and policy.consecutive_failure_limit == 2
    observed = writer.observe(m.ObserveRequest.model_validate(example("observe")))
    assert isinstance(observed, m.ObserveResponse) and observed.write == "inserted"
    assessed = writer.assess(m.AssessRequest.model_validate(example("assess")))
    assert [a.action_id for a in assessed.assessments] == ["restart-service", "drain-and-replace"]
    imported = writer.import_(m.ImportRequest.model_validate(example("import")))
    assert isinstance(imported, m.ImportResponse)
    assert writer.read_policy(**SCOPE).consecutive_failure_limit == 2
    counts = writer.counts(**SCOPE, subject="host-17")
    assert isinstance(counts, m.CountsResponse) and counts.total >= 1
    history = writer.attempt_history(**SCOPE, subject="host-17", limit=10)
    assert isinstance(history, m.HistoryResponse) and history.records
    exported = writer.export(**SCOPE)
    assert isinstance(exported, m.LegacyStore) and exported.records

    # Experience records and skills.
    settings = writer.set_settings(m.RecordSettingsRequest.model_validate(example("set_settings")))
    assert isinstance(settings, m.RecordSettingsResponse) and settings.automated_approval is False
    # Screening before a write: any credential; the answer names the rule and span, never the text.
    screen_request = m.ScreenRequest.model_validate(example("screen"))
    screened = reviewer.screen(screen_request)
    assert isinstance(screened, m.ScreenResponse) and screened.findings
    home = next(f for f in screened.findings if f.rule == "screen.home_path")
    assert "/home/alice" in screen_request.text[home.start : home.end]
    checked = writer.check_record(m.SubmitRecordRequest.model_validate(example("check_record")))
    assert isinstance(checked, m.RecordCheckResponse) and checked.passed and checked.findings == []
    submitted = writer.submit(m.SubmitRecordRequest.model_validate(example("submit")))
    assert isinstance(submitted, m.RecordWriteResponse)
    reviewed = reviewer.review(RECORD_ID, m.ReviewRecordRequest.model_validate(example("review")))
    assert isinstance(reviewed, m.RecordWriteResponse)
    published = reviewer.publish_skill(m.PublishSkillRequest.model_validate(example("publish_skill")))
    assert isinstance(published, m.SkillResponse)
    withdrawn = reviewer.withdraw(RECORD_ID, m.WithdrawRecordRequest.model_validate(example("withdraw")))
    assert isinstance(withdrawn, m.RecordWriteResponse)
    # Its author discards a fresh candidate of their own.
    draft = example("submit")
    draft["source"] = {"key": "ci-incident-2026-11-20-draft"}
    draft["record"]["experience_id"] = DRAFT_ID
    writer.submit(m.SubmitRecordRequest.model_validate(draft))
    discarded = writer.discard_record(DRAFT_ID, m.DiscardRecordRequest.model_validate(example("discard_record")))
    assert isinstance(discarded, m.RecordWriteResponse)
    pulled = reviewer.withdraw_skill(SKILL, "1.0.0", m.WithdrawSkillRequest.model_validate(example("withdraw_skill")))
    assert isinstance(pulled, m.SkillResponse)
    assert isinstance(writer.read_settings(**SCOPE), m.RecordSettingsResponse)
    records = writer.search(**SCOPE, limit=10, include_withdrawn=True)
    assert isinstance(records, m.RecordPage) and RECORD_ID in {r.state.experience_id for r in records.records}
    record = writer.read_record(RECORD_ID, **SCOPE)
    assert isinstance(record, m.RecordResponse) and record.data_only
    record_history = writer.record_history(RECORD_ID, **SCOPE)
    assert isinstance(record_history, m.RecordHistoryResponse) and record_history.entries
    intake = writer.intake(**SCOPE, key="ci-incident-2026-11-20")
    assert isinstance(intake, m.RecordHistoryResponse)
    skills = writer.skills(**SCOPE)
    assert isinstance(skills, m.SkillsResponse) and skills.skills[0].withdrawal is not None
    schema = writer.record_schema()
    assert isinstance(schema, dict) and "properties" in schema

    # The learning authority.
    registered = writer.register_learning_policy(m.RegisterPolicyRequest.model_validate(example("register_learning_policy")))
    assert isinstance(registered, m.LearningPolicyResponse)
    context = writer.register_learning_context(m.RegisterContextRequest.model_validate(example("register_learning_context")))
    assert isinstance(context, m.LearningContextResponse)
    assert isinstance(writer.read_learning_policy("policy-v1"), m.LearningPolicyResponse)
    assert isinstance(writer.read_learning_context("context-v1"), m.LearningContextResponse)
    experience = writer.record_experience(m.RecordExperienceRequest.model_validate(example("record_experience")))
    assert isinstance(experience, m.ExperienceResponse)
    event = writer.report_experience_event(m.ReportEventRequest.model_validate(example("report_experience_event")))
    assert isinstance(event, m.ReportEventResponse)
    assert isinstance(writer.read_experience(m.ReadExperienceRequest.model_validate(example("read_experience"))), m.ExperienceResponse)
    assert isinstance(writer.read_experience_event(m.ReadEventRequest.model_validate(example("read_experience_event"))), m.EventReadResponse)
    assert isinstance(
        writer.experience_history(m.ExperienceHistoryRequest.model_validate(example("experience_history"))),
        m.ExperienceHistoryResponse,
    )
    assert isinstance(writer.experience_lineage(m.ReadExperienceRequest.model_validate(example("experience_lineage"))), m.LineageResponse)
    assert isinstance(writer.export_experiences(m.ExportExperiencesRequest.model_validate(example("export_experiences"))), m.ExperienceExport)
    inspected = writer.inspect_withdrawal(m.InspectWithdrawalRequest.model_validate(example("inspect_withdrawal")))
    assert isinstance(inspected, m.InspectWithdrawalResponse) and inspected.withdrawal is None
    strategy = writer.create_strategy(m.CreateStrategyRequest.model_validate(example("create_strategy")))
    assert isinstance(strategy, m.StrategyResponse)
    assert isinstance(writer.read_strategy(m.ReadStrategyRequest.model_validate(example("read_strategy"))), m.StrategyResponse)
    assert isinstance(writer.inspect_strategy(m.ReadStrategyRequest.model_validate(example("inspect_strategy"))), m.StrategyInspection)
    proposed = writer.propose_procedure(m.ProposeRequest.model_validate(example("propose_procedure")))
    assert isinstance(proposed, m.ProposalResponse)
    evaluation = evaluator.submit_evaluation(m.SubmitEvaluationRequest.model_validate(example("submit_evaluation")))
    assert isinstance(evaluation, m.EvaluationResponse)
    assert isinstance(writer.read_procedure(m.ReadProcedureRequest.model_validate(example("read_procedure"))), m.ProcedureResponse)
    selected = writer.select_procedure(m.SelectRequest.model_validate(example("select_procedure")))
    assert isinstance(selected, (m.SelectResponseProcedure, m.SelectResponseBaseline))
    observation = writer.withdraw_observation(m.WithdrawObservationRequest.model_validate(example("withdraw_observation")))
    assert isinstance(observation, m.WithdrawalResponse)

    # Agent memory.
    item = writer.set_memory(m.SetMemoryRequest.model_validate(example("set_memory")))
    assert isinstance(item, m.SetMemoryResponse) and item.state_changed
    got = writer.get_memory(m.GetMemoryRequest.model_validate(example("get_memory")))
    assert isinstance(got, m.MemoryResponse) and got.memory.revision == item.memory.revision
    found = writer.search_memory(m.SearchMemoryRequest.model_validate(example("search_memory")))
    assert isinstance(found, m.SearchMemoryResponse) and [x.key for x in found.results] == ["bounded-inspection"]
    changes = writer.memory_history(m.MemoryHistoryRequest.model_validate(example("memory_history")))
    assert isinstance(changes, m.MemoryHistoryResponse) and len(changes.changes) == 1
    delete = m.DeleteMemoryRequest.model_validate(example("delete_memory"))
    delete.expected_revision = item.memory.revision
    assert isinstance(writer.delete_memory(delete), m.DeleteMemoryResponse)

    # Proposals: review then approve as the reviewer; resolve needs an
    # unresolved promotion, which only a killed server leaves, so it is
    # refused here as not open.
    assert isinstance(writer.proposal_settings(m.ProposalSettingsRequest.model_validate(example("proposal_settings"))), m.ProposalSettingsResponse)
    source = writer.describe_source(m.DescribeSourceRequest.model_validate(example("describe_source")))
    assert isinstance(source, m.Source) and source.kind == "attempt"
    created = writer.create_proposal(m.CreateExperienceProposalRequest.model_validate(example("create_proposal")))
    proposal = created.proposal.id
    review = reviewer.review_proposal(proposal, m.ScopedProposalRequest.model_validate(example("review_proposal")))
    assert isinstance(review, m.ProposalReview)
    approve = m.ApproveProposalRequest.model_validate(example("approve_proposal"))
    approve.version_hash, approve.destination_hash = review.version_hash, review.destination_hash
    promoted = reviewer.approve_proposal(proposal, approve)
    assert isinstance(promoted, m.PromotionResponse) and promoted.applied_now
    with pytest.raises(Conflict) as refused:
        reviewer.resolve_proposal(proposal, m.ResolveProposalRequest.model_validate(example("resolve_proposal")))
    assert refused.value.code == "proposal_not_open" and refused.value.status == 409
    fresh = writer.create_proposal(m.CreateExperienceProposalRequest.model_validate(example("create_proposal")))
    gone = reviewer.withdraw_proposal(fresh.proposal.id, m.WithdrawProposalRequest.model_validate(example("withdraw_proposal")))
    assert gone.proposal.state == "withdrawn"
    listed = reviewer.list_proposals(**SCOPE)
    assert isinstance(listed, m.ExperienceProposalsResponse) and len(listed.proposals) == 2
    assert reviewer.read_proposal(proposal, **SCOPE).proposal.state == "promoted"
    project = writer.project_skills("billing-service", **SCOPE)
    assert isinstance(project, m.ProjectSkillsResponse) and [s.name for s in project.skills] == [SKILL]
    one = writer.project_skill("billing-service", SKILL, **SCOPE)
    assert isinstance(one, m.ProjectSkill) and len(one.sha256) == 64

    # Capabilities and the public operations.
    capabilities = writer.capabilities()
    assert isinstance(capabilities, m.CapabilitiesResponse)
    assert {c.name for c in capabilities.capabilities if c.held} == set(WRITER_CAPABILITIES)
    assert public.healthz().status == "ok"
    assert public.readyz().status == "ok"
    assert "# TYPE" in public.metrics()
    assert public.openapi()["openapi"].startswith("3.1")

    assert spy.seen == set(OPERATIONS), sorted(set(OPERATIONS) - spy.seen)
