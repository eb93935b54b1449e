//! `praxis proposals …`: experience proposals over HTTP: describe a source,
//! propose a candidate, review it, approve it with the hashes the review
//! showed, read its status, resolve a skill promotion whose outcome is
//! unknown, list and withdraw proposals, set the scope's self-approval, and
//! read the project's skills.
//!
//! The server, the token file and the scope's ids may come from the client
//! config file (see [`crate::client_config`]); flags and environment
//! variables override it. Each command prints the answer as JSON on
//! stdout; `review` also prints the rendered body readably on stderr. A
//! refusal prints `praxis: <status> <code>: <detail> (field <field>)` on
//! stderr, then the findings it names and what to do next, and exits 1
//! (see [`crate::output`]).

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;
use clap::{ArgAction, ArgGroup, Args, Subcommand, ValueEnum};
use praxis_api::{
    ApproveProposalRequest, CONTRACT_VERSION, Candidate, CreateExperienceProposalRequest,
    DescribeSourceRequest, Destination, ExperienceProposal, ExperienceProposalState,
    ProposalReview, ProposalSettingsRequest, ResolveProposalRequest, Scope, ScopedProposalRequest,
    SourceKind, SourceStatus, WithdrawProposalRequest,
};
use praxis_client::proposals::ProposalList;
use praxis_client::{Client, ClientError};

use crate::attempts::{print_json, read_input};
use crate::client_config::{ConfiguredRemote, ScopeFlags};

/// The server, the caller and the scope of one proposals command.
#[derive(Args)]
pub struct Target {
    #[command(flatten)]
    remote: ConfiguredRemote,
    #[command(flatten)]
    scope: ScopeFlags,
}

impl Target {
    /// The client (bound to `idempotency_key`, if any) and the scope.
    fn open(&self, idempotency_key: Option<&str>) -> anyhow::Result<(Client, Scope)> {
        let (client, scope) = self.remote.open(&self.scope)?;
        let client = match idempotency_key {
            Some(key) => client.with_idempotency_key(key),
            None => client,
        };
        Ok((client, scope))
    }
}

/// A stored state a list may be filtered by.
#[derive(Clone, Copy, ValueEnum)]
pub enum StateArg {
    /// Reviewable and approvable.
    Open,
    /// A skill promotion's marker is durable; unresolved ones among them.
    Promoting,
    /// The receipt is saved and the promotion note is not.
    #[value(name = "receipt_saved")]
    ReceiptSaved,
    /// Applied, with its receipt.
    Promoted,
    /// Withdrawn.
    Withdrawn,
}

impl StateArg {
    fn wire(self) -> &'static str {
        match self {
            StateArg::Open => "open",
            StateArg::Promoting => "promoting",
            StateArg::ReceiptSaved => "receipt_saved",
            StateArg::Promoted => "promoted",
            StateArg::Withdrawn => "withdrawn",
        }
    }
}

/// `praxis proposals` subcommands.
#[derive(Subcommand)]
pub enum ProposalsCmd {
    /// Print one source object `{kind, ref, sha256}`, hashed now, to cite
    /// in a candidate; never the object's body (proposal_create). `--file
    /// PATH` is a file of the scope's project (ref `<project>:<PATH>`);
    /// `--object KIND REF` is a Praxis object, REF one argument whose
    /// parts are separated by spaces: attempt "SUBJECT ACTION_ID CASE_ID",
    /// experience_event "ATTEMPT_ID EVENT_ID", record_revision
    /// "EXPERIENCE_ID REVISION", memory_revision "KEY mrev_…".
    #[command(group(ArgGroup::new("what").required(true).args(["file", "object"])))]
    Source {
        #[command(flatten)]
        target: Target,
        /// A file under the project's root, relative to it.
        #[arg(long, value_name = "PATH")]
        file: Option<String>,
        /// A Praxis object: attempt, experience_event, record_revision or
        /// memory_revision, then its ref.
        #[arg(long, num_args = 2, value_names = ["KIND", "REF"])]
        object: Option<Vec<String>>,
    },
    /// Propose the candidate read as JSON from CANDIDATE (or - for stdin):
    /// {"schema":"praxis.experience-proposal.v1","summary","content",
    /// "conditions":[…],"sources":[…],"destination":{…}} (proposal_create).
    /// It is stored as data, never guidance, until approved. Prints the
    /// proposal.
    Propose {
        #[command(flatten)]
        target: Target,
        /// JSON file holding the candidate.
        candidate: PathBuf,
        /// Idempotency-Key of the write: retrying with the same key replays
        /// the first answer (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// Print what approval would write: the exact rendered body, the
    /// destination and its state now, each source's live status, and the
    /// version and destination hashes to approve with (proposal_create or
    /// proposal_approve). The body and a summary also go to stderr.
    Review {
        #[command(flatten)]
        target: Target,
        /// The proposal (`prop_…`).
        id: String,
    },
    /// Approve the version you reviewed against the destination state you
    /// reviewed, with the two hashes `review` printed (proposal_approve).
    /// Prints the promotion receipt; a promoted proposal answers with its
    /// saved receipt (`applied_now: false`) and writes nothing.
    Approve {
        #[command(flatten)]
        target: Target,
        /// The proposal.
        id: String,
        /// The `version_hash` the review showed.
        #[arg(long, value_name = "SHA256")]
        version_hash: String,
        /// The `destination_hash` the review showed.
        #[arg(long, value_name = "SHA256")]
        destination_hash: String,
    },
    /// Print the proposal: its state, candidate, approval, marker and
    /// receipt (proposal_create or proposal_approve).
    Status {
        #[command(flatten)]
        target: Target,
        /// The proposal.
        id: String,
    },
    /// Resolve a skill promotion whose outcome is unknown
    /// (`promotion_outcome_unresolved_do_not_retry`) after inspecting the
    /// file: --applied when it holds the promoted content (the receipt and
    /// note are saved), --not-applied when it is as it was (the proposal is
    /// open again). The server checks the file's hash (proposal_approve).
    #[command(group(ArgGroup::new("outcome").required(true).args(["applied", "not_applied"])))]
    Resolve {
        #[command(flatten)]
        target: Target,
        /// The proposal.
        id: String,
        /// The file holds the promoted content.
        #[arg(long)]
        applied: bool,
        /// The file is as it was before the promotion.
        #[arg(long)]
        not_applied: bool,
    },
    /// Print one page of the scope's proposals by id (proposal_create or
    /// proposal_approve). Pass the page's `next` as --after.
    List {
        #[command(flatten)]
        target: Target,
        /// Only proposals in this state.
        #[arg(long, value_enum)]
        state: Option<StateArg>,
        /// Proposals after this id (the previous page's `next`).
        #[arg(long, value_name = "ID")]
        after: Option<String>,
        /// Proposals per page, 1 to 100 [default: 50].
        #[arg(long, value_name = "N")]
        limit: Option<usize>,
    },
    /// Withdraw an open proposal; its history stays (proposal_create or
    /// proposal_approve). Prints the proposal.
    Withdraw {
        #[command(flatten)]
        target: Target,
        /// The proposal.
        id: String,
        /// Why, at most 1 KiB.
        #[arg(long)]
        reason: String,
        /// Idempotency-Key of the write (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// Set whether a proposer may approve their own proposals in the scope
    /// (policy_admin). Prints the setting.
    Settings {
        #[command(flatten)]
        target: Target,
        /// true or false.
        #[arg(long, action = ArgAction::Set, value_name = "BOOL", required = true)]
        self_approval: bool,
        /// Idempotency-Key of the write (16 to 255 visible ASCII characters).
        #[arg(long, value_name = "IDEMPOTENCY_KEY")]
        idempotency_key: Option<String>,
    },
    /// Print the scope's project's skill files, or the one named NAME,
    /// whole, with their SHA-256 (memory_read).
    Skills {
        #[command(flatten)]
        target: Target,
        /// A skill's name; leave out to list every skill.
        name: Option<String>,
    },
}

/// The kind `--object` names.
fn object_kind(kind: &str) -> anyhow::Result<SourceKind> {
    Ok(match kind {
        "attempt" => SourceKind::Attempt,
        "experience_event" => SourceKind::ExperienceEvent,
        "record_revision" => SourceKind::RecordRevision,
        "memory_revision" => SourceKind::MemoryRevision,
        "file" => anyhow::bail!("a file source is --file PATH, in the scope's project"),
        other => anyhow::bail!(
            "unknown object kind {other:?}: give attempt, experience_event, record_revision \
             or memory_revision"
        ),
    })
}

/// `text` safe to show on a terminal: control characters other than
/// newline and tab are escaped, so a candidate cannot hide or rewrite what
/// its reviewer sees.
fn shown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            let _ = write!(out, "\\u{{{:x}}}", u32::from(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// A source status's name.
fn status_name(status: SourceStatus) -> &'static str {
    match status {
        SourceStatus::Fresh => "fresh",
        SourceStatus::Changed => "changed",
        SourceStatus::Missing => "missing",
    }
}

/// A source kind's name.
fn kind_name(kind: SourceKind) -> &'static str {
    match kind {
        SourceKind::File => "file",
        SourceKind::Attempt => "attempt",
        SourceKind::ExperienceEvent => "experience_event",
        SourceKind::RecordRevision => "record_revision",
        SourceKind::MemoryRevision => "memory_revision",
    }
}

/// A proposal state's wire name.
fn state_name(state: ExperienceProposalState) -> &'static str {
    match state {
        ExperienceProposalState::Open => "open",
        ExperienceProposalState::Promoting => "promoting",
        ExperienceProposalState::PromotionOutcomeUnresolvedDoNotRetry => {
            "promotion_outcome_unresolved_do_not_retry"
        }
        ExperienceProposalState::ReceiptSavedPromotionNoteMissing => {
            "receipt_saved_promotion_note_missing"
        }
        ExperienceProposalState::Promoted => "promoted",
        ExperienceProposalState::Withdrawn => "withdrawn",
    }
}

/// The review as a reviewer reads it: what, where, from what, and the
/// exact text approval writes.
fn review_text(review: &ProposalReview) -> String {
    let p = &review.proposal;
    let d = &review.destination;
    let none = || "none".to_owned();
    let mut text = format!(
        "proposal {} ({}), proposed by {}\nsummary: {}\n",
        p.id,
        state_name(p.state),
        shown(&p.proposer),
        shown(&p.candidate.summary)
    );
    let (what, expected) = match &d.destination {
        Destination::Memory {
            memory_key,
            expected_revision,
        } => (
            format!("memory key {memory_key}"),
            expected_revision.clone(),
        ),
        Destination::Skill {
            project,
            path,
            expected_sha256,
        } => (format!("skill {project}:{path}"), expected_sha256.clone()),
    };
    let _ = writeln!(
        text,
        "destination: {}\n  expected: {}\n  now:      {}{}",
        shown(&what),
        expected.unwrap_or_else(none),
        d.current.clone().unwrap_or_else(none),
        if d.as_expected {
            ""
        } else {
            "  (NOT as the candidate expects)"
        }
    );
    if review.sources.is_empty() {
        text.push_str("sources: none\n");
    } else {
        text.push_str("sources:\n");
        for s in &review.sources {
            let _ = writeln!(
                text,
                "  {:<8} {} {}",
                status_name(s.status),
                kind_name(s.kind),
                shown(&s.reference)
            );
        }
    }
    let _ = write!(
        text,
        "--- the exact text approval writes ---\n{}",
        shown(&review.rendered)
    );
    if !review.rendered.ends_with('\n') {
        text.push('\n');
    }
    let _ = writeln!(
        text,
        "--- end ---\napprove with: praxis proposals approve {} --version-hash {} \
         --destination-hash {}",
        p.id, review.version_hash, review.destination_hash
    );
    text
}

/// What to do after a refusal with `code`, for proposal `id`.
fn next_step(code: &str, id: Option<&str>) -> Option<String> {
    let id = id.unwrap_or("ID");
    Some(match code {
        "promotion_outcome_unresolved_do_not_retry" => format!(
            "do not retry: inspect the file, then run `praxis proposals resolve {id} \
             --applied` if it holds the new hash, or `--not-applied` if it holds the expected one"
        ),
        "resolution_contradicted" => format!(
            "inspect the file again: --applied needs the new hash and --not-applied the \
             expected one (`praxis proposals status {id}` shows both in its marker)"
        ),
        "version_mismatch" | "source_changed" | "destination_changed" => format!(
            "nothing was applied: run `praxis proposals review {id}` again and approve with \
             the hashes it prints"
        ),
        "promotion_in_progress" => {
            format!("another request is promoting it now: check `praxis proposals status {id}`")
        }
        _ => return None,
    })
}

/// A refusal as the CLI prints it: the problem's status, code, detail and
/// field; then each finding; then what to do next. A
/// transport failure of a call that may have changed the proposal says to
/// read its status before anything else.
fn refusal(error: &ClientError, id: Option<&str>, writes: bool) -> anyhow::Error {
    let ClientError::Problem(problem) = error else {
        let mut text = error.to_string();
        if writes && matches!(error, ClientError::Transport(_)) {
            let _ = write!(
                text,
                "\nthe outcome is unknown: run `praxis proposals status {}` before anything else",
                id.unwrap_or("ID")
            );
        }
        return anyhow::Error::msg(text);
    };
    // The first line names the field; the findings and the next step follow.
    let mut advice = crate::output::findings(problem);
    if let Some(step) = next_step(&problem.code, id) {
        let _ = write!(advice, "\n{step}");
    }
    crate::output::refused(problem.clone(), advice)
}

/// Reads and parses the candidate.
fn candidate_of(file: &PathBuf) -> anyhow::Result<Candidate> {
    let text = read_input(file)?;
    serde_json::from_str(&text)
        .with_context(|| format!("parsing the candidate in {}", file.display()))
}

/// The one line a state that needs an operator gets on stderr.
fn state_hint(proposal: &ExperienceProposal) {
    match proposal.state {
        ExperienceProposalState::PromotionOutcomeUnresolvedDoNotRetry => {
            if let Some(m) = &proposal.marker {
                eprintln!(
                    "promotion outcome unknown: do not retry. Inspect {}:{} (sha256 {} before, \
                     {} if the write landed), then run `praxis proposals resolve {} --applied` \
                     or `--not-applied`",
                    m.project,
                    m.path,
                    m.expected_sha256.as_deref().unwrap_or("none: no file"),
                    m.new_sha256,
                    proposal.id
                );
            }
        }
        ExperienceProposalState::ReceiptSavedPromotionNoteMissing => eprintln!(
            "the receipt is saved and the promotion note is not: `praxis proposals approve {}` \
             completes it without writing again",
            proposal.id
        ),
        _ => {}
    }
}

/// Runs one subcommand.
pub async fn run(cmd: ProposalsCmd) -> anyhow::Result<()> {
    match cmd {
        ProposalsCmd::Source {
            target,
            file,
            object,
        } => {
            let (client, scope) = target.open(None)?;
            let (kind, reference) = match (file, object.as_deref()) {
                (Some(path), None) => (SourceKind::File, format!("{}:{path}", scope.project_id)),
                (None, Some([kind, reference])) => (object_kind(kind)?, reference.clone()),
                _ => anyhow::bail!("give exactly one of --file PATH and --object KIND REF"),
            };
            let request = DescribeSourceRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                kind,
                reference,
            };
            let source = client
                .describe_source(&request)
                .await
                .map_err(|e| refusal(&e, None, false))?;
            print_json(&source)
        }
        ProposalsCmd::Propose {
            target,
            candidate,
            idempotency_key,
        } => {
            let candidate = candidate_of(&candidate)?;
            let (client, scope) = target.open(idempotency_key.as_deref())?;
            let request = CreateExperienceProposalRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                candidate,
            };
            let made = client
                .create_proposal(&request)
                .await
                .map_err(|e| refusal(&e, None, false))?;
            print_json(&made)
        }
        ProposalsCmd::Review { target, id } => {
            let (client, scope) = target.open(None)?;
            let request = ScopedProposalRequest {
                contract_version: CONTRACT_VERSION,
                scope,
            };
            let review = client
                .review_proposal(&id, &request)
                .await
                .map_err(|e| refusal(&e, Some(&id), false))?;
            eprint!("{}", review_text(&review));
            print_json(&review)
        }
        ProposalsCmd::Approve {
            target,
            id,
            version_hash,
            destination_hash,
        } => {
            let (client, scope) = target.open(None)?;
            let request = ApproveProposalRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                version_hash,
                destination_hash,
            };
            let promoted = client
                .approve_proposal(&id, &request)
                .await
                .map_err(|e| refusal(&e, Some(&id), true))?;
            print_json(&promoted)
        }
        ProposalsCmd::Status { target, id } => {
            let (client, scope) = target.open(None)?;
            let read = client
                .read_proposal(&scope, &id)
                .await
                .map_err(|e| refusal(&e, Some(&id), false))?;
            state_hint(&read.proposal);
            print_json(&read)
        }
        ProposalsCmd::Resolve {
            target,
            id,
            applied,
            not_applied,
        } => {
            if applied == not_applied {
                anyhow::bail!("give exactly one of --applied and --not-applied");
            }
            let (client, scope) = target.open(None)?;
            let request = ResolveProposalRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                applied,
            };
            let resolved = client
                .resolve_proposal(&id, &request)
                .await
                .map_err(|e| refusal(&e, Some(&id), true))?;
            print_json(&resolved)
        }
        ProposalsCmd::List {
            target,
            state,
            after,
            limit,
        } => {
            let (client, scope) = target.open(None)?;
            let list = ProposalList {
                state: state.map(|s| s.wire().to_owned()),
                after,
                limit,
            };
            let page = client
                .list_proposals(&scope, &list)
                .await
                .map_err(|e| refusal(&e, None, false))?;
            print_json(&page)
        }
        ProposalsCmd::Withdraw {
            target,
            id,
            reason,
            idempotency_key,
        } => {
            let (client, scope) = target.open(idempotency_key.as_deref())?;
            let request = WithdrawProposalRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                reason,
            };
            let withdrawn = client
                .withdraw_proposal(&id, &request)
                .await
                .map_err(|e| refusal(&e, Some(&id), false))?;
            print_json(&withdrawn)
        }
        ProposalsCmd::Settings {
            target,
            self_approval,
            idempotency_key,
        } => {
            let (client, scope) = target.open(idempotency_key.as_deref())?;
            let request = ProposalSettingsRequest {
                contract_version: CONTRACT_VERSION,
                scope,
                self_approval,
            };
            let set = client
                .proposal_settings(&request)
                .await
                .map_err(|e| refusal(&e, None, false))?;
            print_json(&set)
        }
        ProposalsCmd::Skills { target, name } => {
            let (client, scope) = target.open(None)?;
            let project = scope.project_id.clone();
            match name {
                Some(name) => print_json(
                    &client
                        .project_skill(&project, &name, &scope)
                        .await
                        .map_err(|e| refusal(&e, None, false))?,
                ),
                None => print_json(
                    &client
                        .project_skills(&project, &scope)
                        .await
                        .map_err(|e| refusal(&e, None, false))?,
                ),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_for_the_reviewer() {
        assert_eq!(shown("a\tb\nc"), "a\tb\nc");
        assert_eq!(shown("x\u{1b}[2Jy\r"), "x\\u{1b}[2Jy\\u{d}");
    }

    #[test]
    fn object_kinds_are_the_praxis_ones() {
        assert_eq!(
            object_kind("memory_revision").unwrap(),
            SourceKind::MemoryRevision
        );
        assert!(
            object_kind("file")
                .unwrap_err()
                .to_string()
                .contains("--file")
        );
        assert!(object_kind("attempts").is_err());
    }

    #[test]
    fn an_unresolved_promotion_says_not_to_retry() {
        let step = next_step("promotion_outcome_unresolved_do_not_retry", Some("prop_1")).unwrap();
        assert!(step.starts_with("do not retry"), "{step}");
        assert!(step.contains("resolve prop_1 --applied"), "{step}");
        assert_eq!(next_step("proposal_not_found", None), None);
    }
}
