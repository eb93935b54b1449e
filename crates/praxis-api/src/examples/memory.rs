//! Example requests of agent memory: an item is created, read, found,
//! its history listed, and deleted at its revision.

use super::scope;
use crate::{
    CONTRACT_VERSION, DeleteMemoryRequest, GetMemoryRequest, MemoryHistoryRequest, MemoryPriority,
    SearchMemoryRequest, SetMemoryRequest,
};

/// The example item's key.
pub const KEY: &str = "bounded-inspection";
/// The example item's revision once created in the example scope: fixed
/// by the scope, the key and its first write; the live-server example
/// test fails if it goes stale.
pub const REVISION: &str = "mrev_ee19bc23b40dad1aabc812bbf0d5d10f";

/// `POST /api/v1/memory/set`: create-only.
pub fn set() -> SetMemoryRequest {
    SetMemoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        key: KEY.into(),
        summary: "Check continuation fields before treating a read as complete.".into(),
        body: "A bounded read that returns a next cursor is not the whole answer: follow the \
               cursor, or say that the answer is partial."
            .into(),
        tags: vec!["experience".into(), "paging".into()],
        priority: MemoryPriority::Normal,
        bootstrap: false,
        expected_revision: None,
    }
}

/// `POST /api/v1/memory/get`.
pub fn get() -> GetMemoryRequest {
    GetMemoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        key: KEY.into(),
    }
}

/// `POST /api/v1/memory/search`.
pub fn search() -> SearchMemoryRequest {
    SearchMemoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        query: "cursor partial".into(),
        after: None,
        limit: Some(20),
    }
}

/// `POST /api/v1/memory/history`.
pub fn history() -> MemoryHistoryRequest {
    MemoryHistoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        key: KEY.into(),
        after: None,
        limit: Some(50),
    }
}

/// `POST /api/v1/memory/delete`: at the revision the create made.
pub fn delete() -> DeleteMemoryRequest {
    DeleteMemoryRequest {
        contract_version: CONTRACT_VERSION,
        scope: scope(),
        key: KEY.into(),
        expected_revision: REVISION.into(),
    }
}
