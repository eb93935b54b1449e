//! `praxis_store::migrate` on both engines, each way: the copy keeps every
//! event and the seal key's fingerprint, a non-empty target is refused, and
//! a finished copy is not copied into again.

use praxis_domain::ledger::Actor;
use praxis_store::migrate::Progress;
use praxis_store::{StoreError, Write};
use praxis_testkit::{Backend, StoreLocation};

use crate::contract::{append, engine, tenant};

/// Counts what a migration reports.
#[derive(Default)]
struct Count {
    total: u64,
    advanced: u64,
}

impl Progress for Count {
    fn start(&mut self, events: u64, _resumed: bool) {
        self.total = events;
    }

    fn advance(&mut self, n: u64) {
        self.advanced += n;
    }

    fn phase(&mut self, _what: &str) {}
}

#[tokio::test]
async fn a_copy_keeps_the_log_and_the_seal_key_each_way() {
    for (from, to) in [
        (Backend::Sqlite, Backend::Postgres),
        (Backend::Postgres, Backend::Sqlite),
    ] {
        let (source, from_loc) = engine(from).await;
        for t in ["t1", "t2"] {
            tenant(&*source, t).await;
        }
        for n in 0..25 {
            source
                .execute(Write::new("t2", Actor::system(), append("s", n)))
                .await
                .unwrap();
        }
        source.bind_seal_key("fingerprint-a").await.unwrap();
        let to_loc = StoreLocation::new(to);
        let mut count = Count::default();
        let report = praxis_store::migrate(&from_loc.store, &to_loc.store, 4, &mut count)
            .await
            .unwrap();
        assert_eq!(
            (report.tenants, report.events),
            (2, 27),
            "{from:?} → {to:?}"
        );
        assert_eq!((count.total, count.advanced), (27, 27));
        let again = praxis_store::migrate(&from_loc.store, &to_loc.store, 4, &mut count).await;
        assert!(
            matches!(&again, Err(StoreError::Migration(m)) if m.contains("finished")),
            "{again:?}"
        );
        let target = praxis_store::open(&to_loc.store).await.unwrap();
        for t in ["t1", "t2"] {
            assert_eq!(
                target.ledger().events(t, 0, 100).await.unwrap(),
                source.ledger().events(t, 0, 100).await.unwrap()
            );
        }
        // The fingerprint came along: the target refuses another key.
        assert!(matches!(
            target.bind_seal_key("fingerprint-b").await,
            Err(StoreError::SealKeyMismatch { .. })
        ));
        target.bind_seal_key("fingerprint-a").await.unwrap();
        drop(target);
        // A store that holds anything is not a target.
        let (other, other_loc) = engine(from).await;
        tenant(&*other, "x").await;
        drop(other);
        let refused =
            praxis_store::migrate(&to_loc.store, &other_loc.store, 4, &mut Count::default()).await;
        assert!(
            matches!(&refused, Err(StoreError::Migration(m)) if m.contains("not empty")),
            "{refused:?}"
        );
    }
}
