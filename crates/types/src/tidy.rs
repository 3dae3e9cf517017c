//! Numbers as people read them: every decimal in an answer is rounded to 12
//! significant digits (so binary-float noise such as 399999.99999999994
//! reads 400000) and a negative zero reads 0. Applied once where an answer
//! is made (an analysis, a wallet analysis), not on every response.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Number, Value};

/// Significant digits kept.
const DIGITS: usize = 12;

/// `x` to [`DIGITS`] significant digits; zero for a negative zero.
pub fn tidy_f64(x: f64) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return if x == 0.0 { 0.0 } else { x };
    }
    format!("{:.*e}", DIGITS - 1, x).parse().unwrap_or(x)
}

/// Tidy every decimal in `value`, in place (integers stay as they are).
pub fn tidy_value(value: &mut Value) {
    match value {
        Value::Number(n) if n.is_f64() => {
            if let Some(tidied) = n.as_f64().map(tidy_f64).and_then(Number::from_f64) {
                *n = tidied;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(tidy_value),
        Value::Object(fields) => fields.values_mut().for_each(tidy_value),
        _ => {}
    }
}

/// `value` with every decimal tidied.
pub fn tidy<T: Serialize + DeserializeOwned>(value: T) -> Result<T, serde_json::Error> {
    let mut json = serde_json::to_value(&value)?;
    tidy_value(&mut json);
    serde_json::from_value(json)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noise_and_negative_zero_go() {
        assert_eq!(tidy_f64(399_999.999_999_999_94), 400_000.0);
        assert_eq!(tidy_f64(0.1 + 0.2), 0.3);
        assert!(tidy_f64(-0.0).is_sign_positive());
        assert_eq!(tidy_f64(1.341_25e-5), 1.341_25e-5);
        assert_eq!(tidy_f64(-2.5), -2.5);
        let mut v = serde_json::json!({"a": [-0.0, 0.30000000000000004, 7], "b": {"c": 1e-300}});
        tidy_value(&mut v);
        assert_eq!(v.to_string(), r#"{"a":[0.0,0.3,7],"b":{"c":1e-300}}"#);
    }
}
