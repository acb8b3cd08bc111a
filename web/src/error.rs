//! Error answers: one type, [`ApiError`], whose kind decides the status in one place
//! ([`ApiError::status`]), so that the same mistake gets the same status at every endpoint; the
//! body is `{"error": "what is wrong"}`. Also the query strings that produce them.
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
//!
//! Beside the message, every answer carries a stable `code` naming the mistake, which pages
//! translate (`docs/web-api.md`, "Errors").

use axum::Json;
use axum::extract::Query;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;

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

/// An error answer: a kind, and `{"error": message, "code": code, "params": {...}}`: the
/// message says what is wrong in English, the code is a stable name of the mistake for programs
/// and for pages to say it in their own language (by default the kind's: `bad-request`,
/// `unprocessable`, ...), and the parameters are the parts of the message a page puts into its
/// own sentence (the move, the square, the limit; absent when there are none). The codes are
/// listed in `docs/web-api.md`, "Errors"; `crate::error_codes` derives them from the rules'
/// errors.
#[derive(Debug)]
pub struct ApiError {
    kind: ErrorKind,
    code: &'static str,
    params: serde_json::Map<String, serde_json::Value>,
    message: String,
}

impl ErrorKind {
    /// The code of an error of this kind that has none of its own.
    #[must_use]
    pub fn code(self) -> &'static str {
        match self {
            ErrorKind::BadRequest => "bad-request",
            ErrorKind::Unprocessable => "unprocessable",
            ErrorKind::NotFound => "not-found",
            ErrorKind::Conflict => "conflict",
            ErrorKind::TooLarge => "too-large",
            ErrorKind::UnsupportedMediaType => "unsupported-media-type",
            ErrorKind::Busy => "busy",
            ErrorKind::EngineFailure => "engine-failure",
            ErrorKind::Internal => "internal",
        }
    }
}

impl ApiError {
    /// What is wrong.
    pub(crate) fn message(&self) -> &str {
        &self.message
    }

    /// The stable name of the mistake (`moved-on`, `invalid-fen`, or the kind's).
    #[must_use]
    pub fn code(&self) -> &'static str {
        self.code
    }

    /// The same error under a code of its own.
    #[must_use]
    pub(crate) fn with_code(mut self, code: &'static str) -> ApiError {
        self.code = code;
        self
    }

    /// The same error with the parameter `name` (a part of the message a page shows).
    #[must_use]
    pub(crate) fn with(mut self, name: &str, value: impl Into<serde_json::Value>) -> ApiError {
        self.params.insert(name.to_owned(), value.into());
        self
    }

    /// The same error with the parameters of `params` (an object; anything else adds none).
    #[must_use]
    pub(crate) fn with_all(mut self, params: serde_json::Value) -> ApiError {
        if let serde_json::Value::Object(map) = params {
            self.params.extend(map);
        }
        self
    }

    /// The parameters.
    #[must_use]
    pub fn params(&self) -> &serde_json::Map<String, serde_json::Value> {
        &self.params
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
            code: kind.code(),
            params: serde_json::Map::new(),
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
            code: &'static str,
            #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
            params: serde_json::Map<String, serde_json::Value>,
        }
        (
            self.status(),
            Json(Body {
                error: self.message,
                code: self.code,
                params: self.params,
            }),
        )
            .into_response()
    }
}

/// A 503 for a request that would start more jobs than the server runs at once.
pub(crate) fn too_many_jobs() -> ApiError {
    ApiError::busy(format!(
        "{} imports, compilations and reviews are under way, the server's limit; try again when one has ended",
        crate::jobs::MAX_RUNNING
    ))
    .with_code("too-many-jobs")
    .with("max", crate::jobs::MAX_RUNNING)
}

/// The query string, or a 400 saying what is wrong with it.
pub(crate) fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t)
        .map_err(|e| ApiError::bad_request(e.body_text()))
}
