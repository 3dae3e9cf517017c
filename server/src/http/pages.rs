//! Pages of a list: their size as asked, their tokens as issued.

use dropshot::{PaginationParams, RequestContext, ResultsPage};
use riskintel_api::{ApiError, ErrorCode};

use super::ServerContext;

/// A page's size as asked (dropshot's default when not), refused past
/// [`riskintel_api::openapi::precise::PAGE_MAX`], as the document says.
pub(super) fn page_limit<S, P>(
    rqctx: &RequestContext<ServerContext>,
    query: &PaginationParams<S, P>,
) -> Result<usize, ApiError>
where
    S: serde::de::DeserializeOwned,
    P: serde::de::DeserializeOwned + serde::Serialize,
{
    use riskintel_api::openapi::precise::PAGE_MAX;
    let limit = rqctx.page_limit(query)?;
    if limit.get() > PAGE_MAX {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("limit: must be at most {PAGE_MAX}"),
        ));
    }
    // A page token is readable JSON: one edited to a time no page of this
    // service starts at, or to text no database holds, is refused.
    if let dropshot::WhichPage::Next(selector) = &query.page {
        if !storable(&serde_json::to_value(selector).unwrap_or_default()) {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                "page_token: not a token this service issued",
            ));
        }
    }
    Ok(limit.get() as usize)
}

/// Whether every string in `value` is free of NUL (which PostgreSQL cannot
/// take) and every time (a string of a date and time) is within 1970–9999.
fn storable(value: &serde_json::Value) -> bool {
    use chrono::Datelike as _;
    match value {
        // Parsed as the selectors are, extended years included.
        serde_json::Value::String(text) => {
            !text.contains('\0')
                && text
                    .parse::<chrono::DateTime<chrono::Utc>>()
                    .map_or(true, |t| (1970..=9999).contains(&t.year()))
        }
        serde_json::Value::Array(items) => items.iter().all(storable),
        serde_json::Value::Object(fields) => fields.values().all(storable),
        _ => true,
    }
}

/// A page of `items`, read with one more than `limit`: the first `limit`,
/// and a `next_page` token only when there was more (so a client stops at
/// the last page without asking for an empty one).
pub(super) fn page_of<T, S, P>(
    mut items: Vec<T>,
    limit: usize,
    scan: &S,
    selector: impl Fn(&T, &S) -> P,
) -> Result<ResultsPage<T>, dropshot::HttpError>
where
    P: serde::Serialize,
{
    let more = items.len() > limit;
    items.truncate(limit);
    let mut page = ResultsPage::new(items, scan, selector)?;
    if !more {
        page.next_page = None;
    }
    Ok(page)
}
