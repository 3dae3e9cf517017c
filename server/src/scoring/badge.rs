//! The SVG badge: label and score, coloured by label, with an accessible title.

use riskintel_api::{RiskLabel, TokenAnalysis};

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
    let left = "risk";
    let right = format!("{} {:.0}", label_text(analysis.label), analysis.score);
    // 7 px per character of 11 px Verdana is close enough for these strings.
    let left_w = 10 + left.len() * 7;
    let right_w = 10 + right.len() * 7;
    let width = left_w + right_w;
    let symbol = if analysis.meta.symbol.is_empty() {
        "token".to_string()
    } else {
        analysis.meta.symbol.clone()
    };
    let title = escape(&format!(
        "Risk of {symbol} ({} on {}): {}, score {:.1} of 100",
        analysis.address,
        analysis.chain,
        label_text(analysis.label),
        analysis.score
    ));
    format!(
        r##"<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" viewBox="0 0 {width} 20" role="img" aria-label="{title}">
  <title>{title}</title>
  <rect width="{left_w}" height="20" fill="#555"/>
  <rect x="{left_w}" width="{right_w}" height="20" fill="{colour}"/>
  <g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">
    <text x="{lx}" y="14">{left}</text>
    <text x="{rx}" y="14">{right}</text>
  </g>
</svg>
"##,
        colour = colour(analysis.label),
        lx = left_w / 2,
        rx = left_w + right_w / 2,
        right = escape(&right),
    )
}
