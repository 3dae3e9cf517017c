//! Address screening (issue 49, in progress): sanctions lists as data
//! (`lists`). The store, the refresh, the endpoints and the service's own
//! flags build on it.

pub mod lists;
