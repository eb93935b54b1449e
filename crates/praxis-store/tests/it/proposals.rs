//! Proposals on both stores: a memory promotion is one transaction, a
//! duplicate approval writes nothing, and verification rebuilds every
//! proposal from its events.

use praxis_domain::Refusal;
use praxis_domain::auth::Namespace;
use praxis_domain::ledger::Actor;
use praxis_domain::memory::MemoryKey;
use praxis_domain::proposals::{Candidate, Destination, ProposalState, SCHEMA, destination_hash};
use praxis_store::memory::MemoryLimits;
use praxis_store::proposals::{
    Approve, ProposalCommand, ProposalView, ProposalWrite, destination_value,
};
use praxis_store::{Command, Engine, StoreError, Write};
use praxis_testkit::BACKENDS;

use crate::contract::{engine, tenant};
use crate::learning::assert_clean;
use crate::tamper::sql;

const T: &str = "t";

fn ns() -> Namespace {
    Namespace("ns-p".into())
}

fn who(subject: &str) -> Actor {
    Actor {
        credential_id: format!("c-{subject}"),
        subject: subject.into(),
    }
}

fn candidate(key: &str) -> Candidate {
    Candidate {
        schema: SCHEMA.into(),
        summary: "Follow cursors".into(),
        content: "Follow the next cursor.".into(),
        conditions: vec!["A read returns a cursor.".into()],
        sources: vec![],
        destination: Destination::Memory {
            memory_key: MemoryKey::parse("/k", key).unwrap(),
            expected_revision: None,
        },
    }
}

async fn run(
    e: &dyn Engine,
    subject: &str,
    command: ProposalCommand,
) -> Result<ProposalView, StoreError> {
    let write = Write::new(T, who(subject), Command::Proposals(command));
    let applied = e.execute(write).await?.applied()?;
    match applied.proposals() {
        Some(ProposalWrite::Proposal(v)) => Ok((**v).clone()),
        other => panic!("{other:?}"),
    }
}

fn approve(id: &str, version: &str, c: &Candidate) -> ProposalCommand {
    ProposalCommand::Approve(Box::new(Approve {
        namespace: ns(),
        id: id.into(),
        version_hash: version.into(),
        destination_hash: destination_hash(&destination_value(&c.destination), None),
        skill: None,
        limits: MemoryLimits::default(),
    }))
}

#[tokio::test]
async fn a_memory_promotion_is_one_transaction_and_happens_once() {
    for backend in BACKENDS {
        let (engine, _loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let c = candidate("k");
        let propose = ProposalCommand::Propose {
            namespace: ns(),
            id: "prop_00000000000000000000000000000001".into(),
            candidate: Box::new(c.clone()),
            max_open: 10,
        };
        let made = run(e, "alice", propose).await.unwrap();
        let (id, version) = (made.proposal.id.clone(), made.proposal.version_hash.clone());
        // The proposer may not approve without the scope's setting.
        let err = run(e, "alice", approve(&id, &version, &c))
            .await
            .unwrap_err();
        assert!(
            matches!(err, StoreError::Refused(Refusal::SelfApproval)),
            "{err:?}"
        );
        let before = e.ledger().events(T, 0, 1_000).await.unwrap().len();
        let done = run(e, "bob", approve(&id, &version, &c)).await.unwrap();
        assert_eq!(done.proposal.state, ProposalState::Promoted);
        let after = e.ledger().events(T, 0, 1_000).await.unwrap();
        let kinds: Vec<&str> = after[before..].iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "proposal.approved",
                "memory.set",
                "proposal.promotion_receipt",
                "proposal.promoted"
            ]
        );
        let again = run(e, "bob", approve(&id, &version, &c)).await.unwrap();
        assert!(!again.changed);
        assert_eq!(again.proposal.receipt, done.proposal.receipt);
        assert_eq!(
            e.ledger().events(T, 0, 1_000).await.unwrap().len(),
            after.len()
        );
        let item = e
            .memory()
            .get(T, &ns(), &MemoryKey::parse("/k", "k").unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(item.definition.body, c.rendered());
        assert_clean(e).await;
    }
}

#[tokio::test]
async fn verification_finds_an_edited_proposal() {
    for backend in BACKENDS {
        let (engine, loc) = engine(backend).await;
        let e = &*engine;
        tenant(e, T).await;
        let propose = ProposalCommand::Propose {
            namespace: ns(),
            id: "prop_00000000000000000000000000000002".into(),
            candidate: Box::new(candidate("k")),
            max_open: 10,
        };
        run(e, "alice", propose).await.unwrap();
        assert_clean(e).await;
        sql(
            backend,
            &loc.store,
            "UPDATE proposals SET state = 'promoted'",
        )
        .await;
        let report = e.verify().await.unwrap();
        assert!(
            report
                .problems
                .iter()
                .any(|p| p.contains("differs from its events")),
            "{:?}",
            report.problems
        );
    }
}
