//! Agent memory: items under a key per scope, written by compare-and-set
//! on opaque `mrev_…` revisions.
//!
//! Writes (set, delete) send the client's `Idempotency-Key` (see
//! [`Client::with_idempotency_key`]); the reads, which are POSTs because
//! they carry a scope, send none. A refusal is a [`ClientError::Problem`]:
//! 409 `expected_revision_required` or `memory_changed` carry the item's
//! revision as [`ClientError::current_revision`], 404 `memory_not_found`, 422
//! `memory_invalid` lists its findings in `errors`, and 507 `memory_full`.

use praxis_api::{
    DeleteMemoryRequest, DeleteMemoryResponse, GetMemoryRequest, MemoryHistoryRequest,
    MemoryHistoryResponse, MemoryResponse, SearchMemoryRequest, SearchMemoryResponse,
    SetMemoryRequest, SetMemoryResponse,
};

use crate::{Client, ClientError};

impl Client {
    /// `POST /api/v1/memory/set`: creates the item (`expected_revision:
    /// null`, create-only) or replaces it at the revision the caller saw
    /// (memory_write). The identical definition answers with
    /// `state_changed: false`.
    pub async fn set_memory(
        &self,
        request: &SetMemoryRequest,
    ) -> Result<SetMemoryResponse, ClientError> {
        self.post("/api/v1/memory/set", request, None).await
    }

    /// `POST /api/v1/memory/get`: the live item under a key (memory_read).
    pub async fn get_memory(
        &self,
        request: &GetMemoryRequest,
    ) -> Result<MemoryResponse, ClientError> {
        self.read("/api/v1/memory/get", request).await
    }

    /// `POST /api/v1/memory/search`: one page of live items holding every
    /// word of the query, by key, with their summaries (memory_read). Pass
    /// the page's `next` as the next request's `after`.
    pub async fn search_memory(
        &self,
        request: &SearchMemoryRequest,
    ) -> Result<SearchMemoryResponse, ClientError> {
        self.read("/api/v1/memory/search", request).await
    }

    /// `POST /api/v1/memory/history`: one page of a key's changes, oldest
    /// first, deletes included (memory_read). Pass the page's `next` as the
    /// next request's `after`.
    pub async fn memory_history(
        &self,
        request: &MemoryHistoryRequest,
    ) -> Result<MemoryHistoryResponse, ClientError> {
        self.read("/api/v1/memory/history", request).await
    }

    /// `POST /api/v1/memory/delete`: deletes the item at its current
    /// revision (memory_write); the delete is a change of its own in the
    /// key's history.
    pub async fn delete_memory(
        &self,
        request: &DeleteMemoryRequest,
    ) -> Result<DeleteMemoryResponse, ClientError> {
        self.post("/api/v1/memory/delete", request, None).await
    }
}
