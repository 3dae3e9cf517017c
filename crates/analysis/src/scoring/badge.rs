//! The SVG badge: label and score, coloured by label, with an accessible title.

use riskintel_types::{RiskLabel, TokenAnalysis};

fn colour(label: RiskLabel) -> &'static str {
    match label {
        RiskLabel::Safe => "#2e7d32",
        RiskLabel::Caution => "#b26a00",
        RiskLabel::Risky => "#d84315",
        RiskLabel::Critical => "#b71c1c",
    }
}

fn label_text(label: RiskLabel) -> &'static str {
    match label {
        RiskLabel::Safe => "safe",
        RiskLabel::Caution => "caution",
        RiskLabel::Risky => "risky",
        RiskLabel::Critical => "critical",
    }
}

fn escape(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '&' => "&amp;".to_string(),
            '<' => "&lt;".to_string(),
            '>' => "&gt;".to_string(),
            '"' => "&quot;".to_string(),
            '\'' => "&apos;".to_string(),
            c if c.is_control() => String::new(),
            c => c.to_string(),
        })
        .collect()
}

/// Render the badge (well-formed SVG 1.1).
pub fn render(analysis: &TokenAnalysis) -> String {
    let symbol = if analysis.meta.symbol.is_empty() {
        "token".to_string()
    } else {
        analysis.meta.symbol.clone()
    };
    let mut title = format!(
        "Risk of {symbol} ({} on {}): {}, score {:.1} of 100",
        analysis.address,
        analysis.chain,
        label_text(analysis.label),
        analysis.score
    );
    let mut right = format!("{} {:.0}", label_text(analysis.label), analysis.score);
    if let Some(o) = &analysis.label_override {
        title.push_str(&format!(
            "; label set by the operator (the engine's: {}): {}",
            label_text(o.computed_label),
            o.reason
        ));
        right.push_str(" (override)");
    }
    svg(&right, colour(analysis.label), &title)
}

/// The badge shown instead of an error, so a page embedding it shows a
/// badge rather than a broken image: grey, with what went wrong in a word
/// or two (`not a token`, `unavailable`, …) and the message as its title.
pub fn render_error(status: u16, message: &str) -> String {
    let right = match status {
        404 => "not a token",
        400 | 422 => "bad address",
        401 | 403 => "no access",
        402 | 429 => "over limit",
        502..=504 => "unavailable",
        _ => "unknown",
    };
    svg(right, "#9e9e9e", &format!("Risk unknown: {message}"))
}

fn svg(right: &str, fill: &str, title: &str) -> String {
    let left = "risk";
    // 7 px per character of 11 px Verdana is close enough for these strings.
    let left_w = 10 + left.len() * 7;
    let right_w = 10 + right.chars().count() * 7;
    let width = left_w + right_w;
    let title = escape(title);
    format!(
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" viewBox="0 0 {width} 20" role="img" aria-label="{title}">
  <title>{title}</title>
  <rect width="{left_w}" height="20" fill="#555"/>
  <rect x="{left_w}" width="{right_w}" height="20" fill="{fill}"/>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
    <text x="{lx}" y="14">{left}</text>
    <text x="{rx}" y="14">{right}</text>
  </g>
</svg>
"##,
        lx = left_w / 2,
        rx = left_w + right_w / 2,
        right = escape(right),
    )
}
