//! Error answers: a 4xx (or 503) with `{"error": "what is wrong"}`, and the request parts that
//! produce them (query strings, FENs).

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chariot_rules::Position;
use serde::Serialize;

use crate::game::GameError;

/// An error answer: a status and `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    /// What is wrong.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        let status = match e {
            GameError::NotYourTurn(_) => StatusCode::CONFLICT,
            _ => StatusCode::UNPROCESSABLE_ENTITY,
        };
        ApiError::new(status, e.to_string())
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        ApiError::new(e.status(), e.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (
            self.status,
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}

/// A 503 for a request that would start more jobs than the server runs at once.
pub(crate) fn too_many_jobs() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        format!(
            "{} imports and compilations are under way, the server's limit; try again when one has ended",
            crate::jobs::MAX_RUNNING
        ),
    )
}

/// The query string, or a 400 saying what is wrong with it.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::new(e.status(), e.body_text()))
}

/// The position of a FEN, or a 422 saying what is wrong with it.
pub(crate) fn fen_position(fen: &str) -> Result<Position, ApiError> {
    Position::from_fen(fen).map_err(|e| {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("invalid FEN {fen:?}: {e}"),
        )
    })
}
