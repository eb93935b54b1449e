//! Screening a text before it is written: any credential may ask, and
//! nothing is written, so no `Idempotency-Key` is sent.

use praxis_api::{ScreenRequest, ScreenResponse};

use crate::{Client, ClientError};

impl Client {
    /// `POST /api/v1/screen`: every finding (rule, span in code points,
    /// remedy; never the text) for a text about to be written as a record
    /// field or a memory item. A text over 64 KiB is 422 `text_too_long`.
    pub async fn screen(&self, request: &ScreenRequest) -> Result<ScreenResponse, ClientError> {
        self.read("/api/v1/screen", request).await
    }
}
