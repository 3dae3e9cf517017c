//! A 200 answer whose JSON was made beforehand ([`Serialized`]): sent as
//! those bytes, shared rather than copied or serialised again, and
//! documented exactly as `T` (what `HttpResponseOk<T>` documents).

use dropshot::{Body, HttpCodedResponse, HttpError};
use http::StatusCode;
use schemars::JsonSchema;
use serde::Serialize;

use crate::Serialized;

/// Headers an answer carries at most, for the room made at once.
const ANSWER_HEADERS: usize = 12;

/// 200 OK with the bytes of a [`Serialized`] `T`.
pub struct OkSerialized<T>(pub Serialized<T>);

/// The shared JSON text, as the bytes of a body.
struct Text<T>(Serialized<T>);

impl<T> AsRef<[u8]> for Text<T> {
    fn as_ref(&self) -> &[u8] {
        self.0.json().as_bytes()
    }
}

impl<T: 'static> From<OkSerialized<T>> for Result<http::Response<Body>, HttpError> {
    fn from(answer: OkSerialized<T>) -> Self {
        let bytes = bytes::Bytes::from_owner(Text(answer.0));
        let mut response = http::Response::new(Body::from(bytes));
        // Room for every header the answer will carry (its own, the
        // rate limit's, the validators', the framework's and the
        // server's), made once rather than grown.
        let headers = response.headers_mut();
        headers.reserve(ANSWER_HEADERS);
        headers.insert(
            http::header::CONTENT_TYPE,
            http::HeaderValue::from_static("application/json"),
        );
        Ok(response)
    }
}

impl<T: JsonSchema + Serialize + Send + Sync + 'static> HttpCodedResponse for OkSerialized<T> {
    type Body = T;
    const STATUS_CODE: StatusCode = StatusCode::OK;
    const DESCRIPTION: &'static str = "successful operation";
}
