//! Error answers: one type, [`ApiError`], whose kind decides the status in one place
//! ([`ApiError::status`]), so that the same mistake gets the same status at every endpoint; the
//! body is `{"error": "what is wrong"}`. Also the request parts that produce them (query
//! strings, FENs).
//!
//! The kinds, and what each is for (`docs/web-api.md`, "Errors"):
//!
//! | kind | status | when |
//! |---|---|---|
//! | bad request | 400 | the request's form: unreadable JSON or query, an unknown parameter, a value outside its documented format or range |
//! | unprocessable | 422 | well-formed content that cannot be done: a FEN, move text that is no legal move here, a move a game refuses, a field naming something the server lacks |
//! | not found | 404 | the address names no such game, book, table, game database |
//! | too large, unsupported media type | 413, 415 | a body over the limit or not JSON |
//! | conflict | 409 | the request is right but not now: not the player's turn |
//! | busy | 503 | the server's limit of jobs or games is reached |
//! | engine failure | 502 | an external engine could not be started or failed while set up |
//! | internal | 500 | the server failed (a database or file error) |

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use chariot_rules::Position;
use serde::Serialize;

use crate::game::GameError;

/// What kind of mistake or failure an error answer reports; the kind decides the status.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The request's form (400).
    BadRequest,
    /// Xiangqi content the rules reject (422).
    Unprocessable,
    /// No such thing here (404).
    NotFound,
    /// Right, but not now (409).
    Conflict,
    /// The request's body is over the server's limit (413).
    TooLarge,
    /// The request's body is not of a media type the endpoint reads (415).
    UnsupportedMediaType,
    /// The server's limit is reached (503).
    Busy,
    /// An external engine could not be started or failed (502).
    EngineFailure,
    /// The server failed (500).
    Internal,
}

/// An error answer: a kind and `{"error": message}`.
#[derive(Debug)]
pub struct ApiError {
    kind: ErrorKind,
    message: String,
}

impl ApiError {
    /// What is wrong.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The kind of error.
    #[must_use]
    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The status of the answer: the one place kinds map to statuses.
    #[must_use]
    pub fn status(&self) -> StatusCode {
        match self.kind {
            ErrorKind::BadRequest => StatusCode::BAD_REQUEST,
            ErrorKind::Unprocessable => StatusCode::UNPROCESSABLE_ENTITY,
            ErrorKind::NotFound => StatusCode::NOT_FOUND,
            ErrorKind::Conflict => StatusCode::CONFLICT,
            ErrorKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorKind::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ErrorKind::Busy => StatusCode::SERVICE_UNAVAILABLE,
            ErrorKind::EngineFailure => StatusCode::BAD_GATEWAY,
            ErrorKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn of(kind: ErrorKind, message: impl Into<String>) -> ApiError {
        ApiError {
            kind,
            message: message.into(),
        }
    }

    /// The request's form is wrong (400).
    pub(crate) fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::BadRequest, message)
    }

    /// Xiangqi content the rules reject (422).
    pub(crate) fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::Unprocessable, message)
    }

    /// No such thing (404).
    pub(crate) fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::NotFound, message)
    }

    /// Not now (409).
    pub(crate) fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::Conflict, message)
    }

    /// The server's limit is reached (503).
    pub(crate) fn busy(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::Busy, message)
    }

    /// An external engine could not be started or failed (502).
    pub(crate) fn engine_failure(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::EngineFailure, message)
    }

    /// The server failed (500).
    pub(crate) fn internal(message: impl Into<String>) -> ApiError {
        ApiError::of(ErrorKind::Internal, message)
    }
}

impl From<GameError> for ApiError {
    fn from(e: GameError) -> ApiError {
        match e {
            GameError::NotYourTurn(_) => ApiError::conflict(e.to_string()),
            // A level is a number of the API, outside its range like any other parameter.
            GameError::BadLevel(_) => ApiError::bad_request(e.to_string()),
            _ => ApiError::unprocessable(e.to_string()),
        }
    }
}

impl From<JsonRejection> for ApiError {
    fn from(e: JsonRejection) -> ApiError {
        // axum's JSON extractor says 400 for unreadable JSON and 422 for JSON of the wrong
        // shape; both are the request's form here. A body over the limit and one of another
        // media type keep their own statuses.
        let kind = match e.status() {
            StatusCode::PAYLOAD_TOO_LARGE => ErrorKind::TooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => ErrorKind::UnsupportedMediaType,
            _ => ErrorKind::BadRequest,
        };
        ApiError::of(kind, e.body_text())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        #[derive(Serialize)]
        struct Body {
            error: String,
        }
        (
            self.status(),
            Json(Body {
                error: self.message,
            }),
        )
            .into_response()
    }
}

/// A 503 for a request that would start more jobs than the server runs at once.
pub(crate) fn too_many_jobs() -> ApiError {
    ApiError::busy(format!(
        "{} imports and compilations are under way, the server's limit; try again when one has ended",
        crate::jobs::MAX_RUNNING
    ))
}

/// The query string, or a 400 saying what is wrong with it.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}

/// The position of a FEN, or a 422 saying what is wrong with it.
pub(crate) fn fen_position(fen: &str) -> Result<Position, ApiError> {
    Position::from_fen(fen)
        .map_err(|e| ApiError::unprocessable(format!("invalid FEN {fen:?}: {e}")))
}
