//! Procedures: strategies bound to exact observations, ordinary proposals,
//! held-out evaluations, procedure reads, strategy inspection and
//! selection.
//!
//! Writes send the client's `Idempotency-Key` (see
//! [`Client::with_idempotency_key`]); the reads, which are POSTs because
//! they carry a scope, send none.

use praxis_api::{
    CreateStrategyRequest, EvaluationResponse, ProcedureResponse, ProposalResponse, ProposeRequest,
    ReadProcedureRequest, ReadStrategyRequest, SelectRequest, SelectResponse, StrategyInspection,
    StrategyResponse, SubmitEvaluationRequest,
};

use crate::{Client, ClientError};

impl Client {
    /// `POST /api/v1/learning/strategies`: binds the named observations and
    /// registers the candidate (201), or answers the identical request with
    /// its original receipt (200).
    pub async fn create_strategy(
        &self,
        request: &CreateStrategyRequest,
    ) -> Result<StrategyResponse, ClientError> {
        self.post("/api/v1/learning/strategies", request, None)
            .await
    }

    /// `POST /api/v1/learning/strategies/read`: the original receipt,
    /// re-verified.
    pub async fn read_strategy(
        &self,
        request: &ReadStrategyRequest,
    ) -> Result<StrategyResponse, ClientError> {
        self.read("/api/v1/learning/strategies/read", request).await
    }

    /// `POST /api/v1/learning/strategies/inspect`: whether selection may
    /// return the strategy now, and why.
    pub async fn inspect_strategy(
        &self,
        request: &ReadStrategyRequest,
    ) -> Result<StrategyInspection, ClientError> {
        self.read("/api/v1/learning/strategies/inspect", request)
            .await
    }

    /// `POST /api/v1/learning/proposals`: registers an ordinary proposal as
    /// a candidate.
    pub async fn propose_procedure(
        &self,
        request: &ProposeRequest,
    ) -> Result<ProposalResponse, ClientError> {
        self.post("/api/v1/learning/proposals", request, None).await
    }

    /// `POST /api/v1/learning/evaluations`: one held-out case, by the
    /// policy's evaluator.
    pub async fn submit_evaluation(
        &self,
        request: &SubmitEvaluationRequest,
    ) -> Result<EvaluationResponse, ClientError> {
        self.post("/api/v1/learning/evaluations", request, None)
            .await
    }

    /// `POST /api/v1/learning/procedures/read`: a procedure's state and
    /// statistics, re-folded.
    pub async fn read_procedure(
        &self,
        request: &ReadProcedureRequest,
    ) -> Result<ProcedureResponse, ClientError> {
        self.read("/api/v1/learning/procedures/read", request).await
    }

    /// `POST /api/v1/learning/select`: the best eligible qualified
    /// procedure that fits, or the baseline.
    pub async fn select_procedure(
        &self,
        request: &SelectRequest,
    ) -> Result<SelectResponse, ClientError> {
        self.read("/api/v1/learning/select", request).await
    }
}
