//! The catalog's HTTP JSON API (axum):
//!
//! - `POST /items`: 201 and the new item, or 200 and the existing one when an item with an
//!   equivalent URN is stored;
//! - `GET /items/{urn}`: the item whose URN is equivalent to the URN in the path, read by
//!   [`UrnPath`] as the client wrote it (or encoded whole, as `encodeURIComponent` does; r- and
//!   q-components may follow as the query string);
//! - `GET /schema/item`: the JSON Schema of an item;
//! - `GET /openapi.json`: the OpenAPI 3.1 document of these routes (utoipa), URN fields with
//!   their pattern;
//! - errors: `{"error": message, "field": name or null, "offset": byte or null}`, with 400 for
//!   a body that is not JSON, 422 for an invalid item, 404, 500; an invalid URN in the path is
//!   a 422 RFC 9457 problem (`application/problem+json`, `urn_serde::axum::UrnPathRejection`).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use urn_core::Urn;
use urn_serde::axum::UrnPath;
use utoipa::OpenApi;

use crate::item::{InvalidItem, Item, NewItem};
use crate::store::Store;

/// The catalog's routes over `store`.
pub fn router(store: Store) -> Router {
    Router::new()
        .route("/items", post(create_item))
        // A wildcard, so a URN with an unencoded '/' in its NSS still reaches the handler.
        .route("/items/{*urn}", get(get_item))
        .route("/schema/item", get(item_schema))
        .route("/openapi.json", get(openapi))
        .with_state(store)
}

/// The OpenAPI document of the catalog: every route, request and response body, the error body.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "urn catalog",
        description = "Items named by URNs, stored once per canonical key."
    ),
    paths(create_item, get_item, item_schema, openapi),
    components(schemas(NewItem, Item, InvalidItem))
)]
pub struct ApiDoc;

/// An error response: a status and the JSON error body.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    body: InvalidItem,
}

impl ApiError {
    fn new(status: StatusCode, error: impl Into<String>) -> Self {
        ApiError {
            status,
            body: InvalidItem::general(error),
        }
    }
}

impl From<InvalidItem> for ApiError {
    fn from(body: InvalidItem) -> Self {
        let status = if body.malformed {
            StatusCode::BAD_REQUEST
        } else {
            StatusCode::UNPROCESSABLE_ENTITY
        };
        ApiError { status, body }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        // The details go to the log, not to the client.
        eprintln!("catalog: database error: {err}");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "database error")
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body)).into_response()
    }
}

/// Stores an item unless an item with an equivalent URN is stored.
#[utoipa::path(
    post,
    path = "/items",
    request_body(content = NewItem, description = "The new item", content_type = "application/json"),
    responses(
        (status = 201, description = "Stored", body = Item),
        (status = 200, description = "An item with an equivalent URN was already stored", body = Item),
        (status = 400, description = "The body is not JSON", body = InvalidItem),
        (status = 422, description = "A field is invalid: the message names the rule and the byte", body = InvalidItem),
        (status = 500, description = "Database error", body = InvalidItem),
    )
)]
async fn create_item(
    State(store): State<Store>,
    body: Bytes,
) -> Result<(StatusCode, Json<Item>), ApiError> {
    let new = NewItem::from_json(&body)?;
    let (item, created) = store.insert_or_get(&new).await?;
    let status = if created {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    Ok((status, Json(item)))
}

/// The item whose URN is equivalent to `urn`.
#[utoipa::path(
    get,
    path = "/items/{urn}",
    params(("urn" = Urn, Path, description = "Any spelling of the item's URN, as written (r- and q-components as the query string: `?+r`, `?=q`), or encoded whole as encodeURIComponent does, ':' included (an encoder that escapes '/' but not ':' sends another URN)")),
    responses(
        (status = 200, description = "The item", body = Item),
        (status = 404, description = "No item has an equivalent URN", body = InvalidItem),
        (status = 422, description = "Not a URN: an RFC 9457 problem naming the rule and the byte", content_type = "application/problem+json"),
        (status = 500, description = "Database error", body = InvalidItem),
    )
)]
async fn get_item(
    State(store): State<Store>,
    UrnPath(urn): UrnPath,
) -> Result<Json<Item>, ApiError> {
    match store.find(&urn).await? {
        Some(item) => Ok(Json(item)),
        None => Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!(
                "no item is named {urn} or an equivalent URN (key {})",
                urn.key()
            ),
        )),
    }
}

/// The JSON Schema (draft 2020-12) of an item.
#[utoipa::path(
    get,
    path = "/schema/item",
    responses((status = 200, description = "A JSON Schema document", body = Object, content_type = "application/schema+json"))
)]
async fn item_schema() -> Json<serde_json::Value> {
    Json(urn_schema::document_for::<Item>())
}

/// This document.
#[utoipa::path(
    get,
    path = "/openapi.json",
    responses((status = 200, description = "The OpenAPI 3.1 document", body = Object))
)]
async fn openapi() -> Json<utoipa::openapi::OpenApi> {
    Json(ApiDoc::openapi())
}
