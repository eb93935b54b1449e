//! The learning authority's ground floor: the tenant-wide registry of
//! policies and evaluation contexts, and development experiences with
//! their events, reads, exports and withdrawals.
//!
//! Writes send the client's `Idempotency-Key` (see
//! [`Client::with_idempotency_key`]); the reads, which are POSTs because
//! they carry a scope, send none.

use praxis_api::{
    EventReadResponse, ExperienceExport, ExperienceHistoryRequest, ExperienceHistoryResponse,
    ExperienceResponse, ExportExperiencesRequest, InspectWithdrawalRequest,
    InspectWithdrawalResponse, LearningContextResponse, LearningPolicyResponse, LineageResponse,
    ReadEventRequest, ReadExperienceRequest, RecordExperienceRequest, RegisterContextRequest,
    RegisterPolicyRequest, ReportEventRequest, ReportEventResponse, WithdrawObservationRequest,
    WithdrawalResponse,
};
use reqwest::Method;

use crate::{Client, ClientError, path_segment};

impl Client {
    /// `POST /api/v1/learning/policies`: registers a policy (201), or finds
    /// the identical one registered (200, the original entry); other
    /// content under its id is refused with `registry_conflict`.
    pub async fn register_learning_policy(
        &self,
        request: &RegisterPolicyRequest,
    ) -> Result<LearningPolicyResponse, ClientError> {
        self.post("/api/v1/learning/policies", request, None).await
    }

    /// `GET /api/v1/learning/policies/{id}`.
    pub async fn learning_policy(&self, id: &str) -> Result<LearningPolicyResponse, ClientError> {
        let path = format!("/api/v1/learning/policies/{}", path_segment(id));
        Self::send(self.request(Method::GET, &path)).await
    }

    /// `POST /api/v1/learning/contexts`: registers an evaluation context
    /// (201), or finds the identical one registered (200, the original
    /// entry); other content under its id is refused with `registry_conflict`.
    pub async fn register_learning_context(
        &self,
        request: &RegisterContextRequest,
    ) -> Result<LearningContextResponse, ClientError> {
        self.post("/api/v1/learning/contexts", request, None).await
    }

    /// `GET /api/v1/learning/contexts/{id}`.
    pub async fn learning_context(&self, id: &str) -> Result<LearningContextResponse, ClientError> {
        let path = format!("/api/v1/learning/contexts/{}", path_segment(id));
        Self::send(self.request(Method::GET, &path)).await
    }

    /// `POST /api/v1/experiences`: records an attempt at revision 1 (201),
    /// or finds the identical attempt recorded by the caller (200).
    pub async fn record_experience(
        &self,
        request: &RecordExperienceRequest,
    ) -> Result<ExperienceResponse, ClientError> {
        self.post("/api/v1/experiences", request, None).await
    }

    /// `POST /api/v1/experiences/events`: reports an event on the revision
    /// the caller saw; a stale one is refused with `revision_conflict` and
    /// the problem's `current_revision`.
    pub async fn report_experience_event(
        &self,
        request: &ReportEventRequest,
    ) -> Result<ReportEventResponse, ClientError> {
        self.post("/api/v1/experiences/events", request, None).await
    }

    /// `POST /api/v1/experiences/read`: an attempt and its current state.
    pub async fn read_experience(
        &self,
        request: &ReadExperienceRequest,
    ) -> Result<ExperienceResponse, ClientError> {
        self.read("/api/v1/experiences/read", request).await
    }

    /// `POST /api/v1/experiences/events/read`: one event, and its
    /// withdrawal if it is withdrawn.
    pub async fn read_experience_event(
        &self,
        request: &ReadEventRequest,
    ) -> Result<EventReadResponse, ClientError> {
        self.read("/api/v1/experiences/events/read", request).await
    }

    /// `POST /api/v1/experiences/history`: one page of an attempt's events
    /// in revision order.
    pub async fn experience_history(
        &self,
        request: &ExperienceHistoryRequest,
    ) -> Result<ExperienceHistoryResponse, ClientError> {
        self.read("/api/v1/experiences/history", request).await
    }

    /// `POST /api/v1/experiences/lineage`: the attempt first, its root last.
    pub async fn experience_lineage(
        &self,
        request: &ReadExperienceRequest,
    ) -> Result<LineageResponse, ClientError> {
        self.read("/api/v1/experiences/lineage", request).await
    }

    /// `POST /api/v1/experiences/export`: 1 to 64 observations, one per
    /// attempt, sorted and summed, with the export's digest.
    pub async fn export_experiences(
        &self,
        request: &ExportExperiencesRequest,
    ) -> Result<ExperienceExport, ClientError> {
        self.read("/api/v1/experiences/export", request).await
    }

    /// `POST /api/v1/experiences/withdrawals`: withdraws an observation for
    /// good (201), or returns the original receipt of the same
    /// `idempotency_key` (200).
    pub async fn withdraw_observation(
        &self,
        request: &WithdrawObservationRequest,
    ) -> Result<WithdrawalResponse, ClientError> {
        self.post("/api/v1/experiences/withdrawals", request, None)
            .await
    }

    /// `POST /api/v1/experiences/withdrawals/inspect`: whether an
    /// observation is withdrawn, and by which receipt.
    pub async fn inspect_withdrawal(
        &self,
        request: &InspectWithdrawalRequest,
    ) -> Result<InspectWithdrawalResponse, ClientError> {
        self.read("/api/v1/experiences/withdrawals/inspect", request)
            .await
    }
}
