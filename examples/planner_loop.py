#!/usr/bin/env python3
"""A complete agent loop on the Praxis attempt ledger, with ``praxis_client``.

A planner works on a few subjects (hosts). Each round it asks Praxis to
assess its candidate actions for every subject, skips what Praxis says to
suppress, runs the rest through a simulated verifier and records every
outcome (``POST /api/v1/attempts``). The verifier is deterministic for a
given ``--seed`` and mixes:

- verified negatives (``confirmed_negative`` at the active stage, and a
  ``false_positive`` the verifier rejected): evidence that the action does
  not work on that subject, which count towards suppression;
- operational failures (a timeout, a block by host policy, an executor
  crash): recorded as ``unknown`` outcomes with the operational disposition
  (``transport_failure``, ``blocked_by_policy``, ``executor_failure``),
  which never count as evidence;
- successes, which end a streak.

With the namespace's ``consecutive_failure_limit`` set to ``--limit`` (the
credential needs ``policy_admin`` for that, besides ``experience_write``
and ``experience_read`` and a grant for the scope), the verified negatives
are suppressed after ``--limit`` rounds while the operational failures keep
being retried. A table at the end shows what was tried, suppressed and
explored.

    python examples/planner_loop.py --url http://127.0.0.1:7878 --token-file bot-token
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass

from praxis_client import Client
from praxis_client import models as m

SUBJECTS = ["host-1", "host-2", "host-3"]
ACTIONS = ["restart-service", "flush-cache", "rotate-logs"]

# What each (subject, action) does when tried: a verdict per round, cycling.
# "negative" and "rejected" are verified negatives; "timeout", "policy" and
# "crash" are operational failures; "success" is a confirmed positive.
BEHAVIOUR: dict[tuple[str, str], list[str]] = {
    ("host-1", "restart-service"): ["negative"],
    ("host-1", "flush-cache"): ["timeout"],
    ("host-1", "rotate-logs"): ["success"],
    ("host-2", "restart-service"): ["crash", "success"],
    ("host-2", "flush-cache"): ["policy"],
    ("host-2", "rotate-logs"): ["negative", "timeout", "negative"],
    ("host-3", "restart-service"): ["timeout", "crash"],
    ("host-3", "flush-cache"): ["rejected"],
    ("host-3", "rotate-logs"): ["negative", "success"],
}

OPERATIONAL: dict[str, m.Disposition] = {
    "timeout": "transport_failure",
    "policy": "blocked_by_policy",
    "crash": "executor_failure",
}


@dataclass
class Verdict:
    kind: str
    outcome: m.Outcome
    disposition: m.Disposition | None


def verify(rng: random.Random, run: str, subject: str, action: str, round_no: int) -> Verdict:
    """The simulated verifier: deterministic for a seed."""
    pattern = BEHAVIOUR[(subject, action)]
    kind = pattern[round_no % len(pattern)]
    case_id = f"{run}-{subject}-{action}-r{round_no}"
    hypothesis = f"{action}-fixes-{subject}"
    if kind in OPERATIONAL:
        # No conclusion was reached: the evidence-free fallback, with the
        # operational cause stated so that it is never read as evidence.
        outcome = m.Outcome(
            action_id=action,
            case_id=case_id,
            hypothesis_id=hypothesis,
            subject=subject,
            stage="active",
            status="unknown",
            confidence=0,
            evidence_ids=[],
            rationale=f"no verdict: {kind} while running {action}",
        )
        return Verdict(kind, outcome, OPERATIONAL[kind])
    statuses: dict[str, m.OutcomeStatus] = {
        "negative": "confirmed_negative",
        "rejected": "false_positive",
        "success": "success",
    }
    outcome = m.Outcome(
        action_id=action,
        case_id=case_id,
        hypothesis_id=hypothesis,
        subject=subject,
        stage="active",
        status=statuses[kind],
        confidence=rng.randint(700_000, 990_000),
        evidence_ids=[f"probe-{case_id}-{rng.randrange(1 << 32):08x}"],
        verifier_rule_id="health-check-200",
        rationale=f"health check after {action}: {kind}",
    )
    return Verdict(kind, outcome, None)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--url", required=True, help="the Praxis server, e.g. http://127.0.0.1:7878")
    parser.add_argument("--token-file", required=True, help="file holding the credential's token (mode 0600)")
    parser.add_argument("--project", default="planner-demo")
    parser.add_argument("--agent", default="planner-bot")
    parser.add_argument("--mission", default=None, help="absent is the null mission")
    parser.add_argument("--visibility", default="shared", choices=["shared", "private"])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--limit", type=int, default=2, help="consecutive verified negatives that suppress")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--run", default="demo", help="prefix of the case ids (a new one starts afresh)")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    visibility: m.Visibility = "private" if args.visibility == "private" else "shared"
    scope = m.Scope(project_id=args.project, mission_id=args.mission, agent_id=args.agent, visibility=visibility)
    tried: Counter[tuple[str, str]] = Counter()
    suppressed: Counter[tuple[str, str]] = Counter()
    explored: Counter[tuple[str, str]] = Counter()
    kinds: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    final: dict[tuple[str, str], m.Recommendation] = {}

    with Client(args.url, token_file=args.token_file) as praxis:
        policy = praxis.set_policy(m.SetPolicyRequest(scope=scope, consecutive_failure_limit=args.limit, streak_key="action"))
        print(f"policy: suppress after {policy.consecutive_failure_limit} consecutive verified negatives")
        for round_no in range(args.rounds):
            for subject in SUBJECTS:
                actions = list(ACTIONS)
                rng.shuffle(actions)
                advice = praxis.assess(m.AssessRequest(subject=subject, actions=list(actions), scope=scope))
                for assessment in advice.assessments:
                    key = (subject, assessment.action_id)
                    if assessment.recommendation == "suppress":
                        suppressed[key] += 1
                        print(
                            f"round {round_no} {subject:7} {assessment.action_id:16} suppressed "
                            f"({assessment.consecutive_failures} verified negatives)"
                        )
                        continue
                    if assessment.recommendation == "explore":
                        explored[key] += 1
                    verdict = verify(rng, args.run, subject, assessment.action_id, round_no)
                    answer = praxis.observe(m.ObserveRequest(outcome=verdict.outcome, scope=scope, disposition=verdict.disposition))
                    tried[key] += 1
                    kinds[key][verdict.kind] += 1
                    print(
                        f"round {round_no} {subject:7} {assessment.action_id:16} {assessment.recommendation:9}"
                        f" -> {verdict.kind:8} recorded as {answer.record.disposition}"
                    )
        for subject in SUBJECTS:
            advice = praxis.assess(m.AssessRequest(subject=subject, actions=list(ACTIONS), scope=scope))
            for assessment in advice.assessments:
                final[(subject, assessment.action_id)] = assessment.recommendation

    print()
    header = f"{'subject':8} {'action':16} {'tried':>5} {'explored':>8} {'suppressed':>10}  {'outcomes':34} now"
    print(header)
    print("-" * len(header))
    for subject in SUBJECTS:
        for action in ACTIONS:
            key = (subject, action)
            outcomes = ", ".join(f"{k}x{n}" for k, n in sorted(kinds[key].items()))
            print(
                f"{subject:8} {action:16} {tried[key]:5} {explored[key]:8} {suppressed[key]:10}  {outcomes:34} {final[key]}"
            )
    print()
    for (subject, action), recommendation in sorted(final.items()):
        operational = sum(kinds[(subject, action)][k] for k in OPERATIONAL)
        if recommendation == "suppress":
            print(f"SUPPRESSED {subject} {action}")
        elif operational:
            print(f"NOT SUPPRESSED {subject} {action} despite {operational} operational failure(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
