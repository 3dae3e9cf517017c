//! A value serialised once and served as its bytes.

use std::marker::PhantomData;
use std::sync::Arc;

use schemars::gen::SchemaGenerator;
use schemars::schema::Schema;
use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::value::RawValue;

/// The JSON of a `T`, made once and shared: serving it copies bytes instead
/// of cloning and re-serialising the value. On the wire and in the OpenAPI
/// document it is exactly a `T`.
pub struct Serialized<T> {
    json: Arc<RawValue>,
    kind: PhantomData<fn() -> T>,
}

impl<T: Serialize> Serialized<T> {
    /// Serialise `value`.
    pub fn new(value: &T) -> Result<Self, serde_json::Error> {
        Ok(Serialized {
            json: Arc::from(serde_json::value::to_raw_value(value)?),
            kind: PhantomData,
        })
    }
}

impl<T> Serialized<T> {
    /// The JSON text.
    pub fn json(&self) -> &str {
        self.json.get()
    }
}

impl<T> Clone for Serialized<T> {
    fn clone(&self) -> Self {
        Serialized {
            json: self.json.clone(),
            kind: PhantomData,
        }
    }
}

impl<T> std::fmt::Debug for Serialized<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Serialized").field(&self.json.get()).finish()
    }
}

impl<T> Serialize for Serialized<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json.serialize(serializer)
    }
}

impl<T: JsonSchema> JsonSchema for Serialized<T> {
    // Not a schema of its own: a reference to `T`'s, so the document names `T`.
    fn is_referenceable() -> bool {
        false
    }

    fn schema_name() -> String {
        T::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        generator.subschema_for::<T>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Serialize, JsonSchema)]
    struct Thing {
        name: String,
        score: f64,
    }

    #[test]
    fn serialises_as_the_value_and_documents_the_value() {
        let thing = Thing {
            name: "a\"b".into(),
            score: 1.5,
        };
        let once = Serialized::new(&thing).unwrap();
        assert_eq!(
            serde_json::to_string(&once).unwrap(),
            serde_json::to_string(&thing).unwrap()
        );
        let mut generator = SchemaGenerator::default();
        let schema = Serialized::<Thing>::json_schema(&mut generator);
        assert_eq!(
            serde_json::to_value(&schema).unwrap(),
            serde_json::json!({ "$ref": "#/definitions/Thing" })
        );
        assert!(generator.definitions().contains_key("Thing"));
    }
}
