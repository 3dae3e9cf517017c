//! Sanctions lists as data: the US Treasury's OFAC SDN list in its
//! published forms (the XML, and the CSV whose remarks carry the digital
//! currency addresses, with its comments file for remarks past 1,000
//! characters), and an operator's own list in a simple CSV. Each parses
//! into the list's entries (one per address), its publication date where
//! it says one, and a version that changes whenever its content does.
//! See `docs/design/ofac-sources.md`.

use sha2::{Digest, Sha256};

/// One listed address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The address as matched: `0x` addresses lower-cased, others as written.
    pub address: String,
    /// The chain it is listed for: the SDN's currency code (`ETH`, `XBT`,
    /// `USDT`, `TRX`, …) or the operator's chain id, or `any`.
    pub chain: String,
    /// The list's own id of the entry (the SDN's `uid` / `ent_num`).
    pub entry_id: String,
    /// Who is listed (the SDN's name), or the operator's reason.
    pub name: String,
}

/// A parsed list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedList {
    /// Its publication date as the list writes it (`MM/DD/YYYY` for the SDN), where it has one.
    pub published: Option<String>,
    /// Its entries (records) as the list counts them, where it does.
    pub records: Option<usize>,
    /// A version: the publication date and a digest of the addresses listed.
    pub version: String,
    /// Its addresses.
    pub listed: Vec<Listed>,
}

/// Why a list could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ListError(pub String);

/// The prefix of an SDN identifier or remark that carries an address.
const DIGITAL_CURRENCY: &str = "Digital Currency Address - ";

/// An address in the form it is matched in.
pub fn normalise(address: &str) -> String {
    let address = address.trim();
    if address.len() == 42 && (address.starts_with("0x") || address.starts_with("0X")) {
        format!("0x{}", address[2..].to_ascii_lowercase())
    } else {
        address.to_string()
    }
}

fn finish(
    published: Option<String>,
    records: Option<usize>,
    mut listed: Vec<Listed>,
) -> ParsedList {
    listed.sort_by(|a, b| {
        (&a.address, &a.chain, &a.entry_id).cmp(&(&b.address, &b.chain, &b.entry_id))
    });
    // One entry per (address, chain, entry): a list naming it twice keeps the first name.
    listed
        .dedup_by(|b, a| a.address == b.address && a.chain == b.chain && a.entry_id == b.entry_id);
    let mut digest = Sha256::new();
    for l in &listed {
        digest.update(format!(
            "{}\t{}\t{}\t{}\n",
            l.address, l.chain, l.entry_id, l.name
        ));
    }
    let digest = hex::encode(&digest.finalize()[..6]);
    let version = match &published {
        Some(date) => format!("{date} {digest}"),
        None => digest,
    };
    ParsedList {
        published,
        records,
        version,
        listed,
    }
}

/// The legacy SDN XML (`sdnList`): every `sdnEntry/idList/id` whose
/// `idType` is a digital currency address. The namespace is not checked
/// (it changed in 2024); `Record_Count` must equal the entries found.
pub fn sdn_xml(text: &str) -> Result<ParsedList, ListError> {
    let doc = roxmltree::Document::parse(text).map_err(|e| ListError(format!("not XML: {e}")))?;
    let root = doc.root_element();
    if root.tag_name().name() != "sdnList" {
        return Err(ListError(format!(
            "the root is {:?}, not sdnList",
            root.tag_name().name()
        )));
    }
    let child = |node: roxmltree::Node<'_, '_>, name: &str| {
        node.children()
            .find(|c| c.tag_name().name() == name)
            .and_then(|c| c.text())
            .map(|t| t.trim().to_string())
    };
    let info = root
        .children()
        .find(|c| c.tag_name().name() == "publshInformation");
    let published = info.and_then(|i| child(i, "Publish_Date"));
    let records = info
        .and_then(|i| child(i, "Record_Count"))
        .and_then(|c| c.parse::<usize>().ok());
    let mut entries = 0;
    let mut listed = Vec::new();
    for entry in root
        .children()
        .filter(|c| c.tag_name().name() == "sdnEntry")
    {
        entries += 1;
        let uid = child(entry, "uid")
            .ok_or_else(|| ListError(format!("sdnEntry {entries} has no uid")))?;
        let name = [child(entry, "firstName"), child(entry, "lastName")]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" ");
        let ids = entry
            .children()
            .filter(|c| c.tag_name().name() == "idList")
            .flat_map(|l| l.children());
        for id in ids.filter(|c| c.tag_name().name() == "id") {
            let (Some(kind), Some(number)) = (child(id, "idType"), child(id, "idNumber")) else {
                continue;
            };
            if let Some(code) = kind.strip_prefix(DIGITAL_CURRENCY) {
                listed.push(Listed {
                    address: normalise(&number),
                    chain: code.trim().to_string(),
                    entry_id: uid.clone(),
                    name: name.clone(),
                });
            }
        }
    }
    if let Some(count) = records {
        if count != entries {
            return Err(ListError(format!(
                "Record_Count says {count} entries, the file holds {entries}: cut short"
            )));
        }
    }
    Ok(finish(published, records, listed))
}

/// The addresses a remarks text carries (`Digital Currency Address - ETH 0x…;`).
fn remark_addresses(remarks: &str) -> Vec<(String, String)> {
    remarks
        .split(';')
        .filter_map(|item| {
            let at = item.find(DIGITAL_CURRENCY)?;
            let rest = &item[at + DIGITAL_CURRENCY.len()..];
            let mut words = rest.split_whitespace();
            let code = words.next()?.to_string();
            let address = words.next()?.trim_end_matches('.').to_string();
            Some((code, normalise(&address)))
        })
        .collect()
}

fn csv_rows(text: &str) -> Result<Vec<csv::StringRecord>, ListError> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes())
        .records()
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| ListError(format!("not CSV: {e}")))
}

/// The SDN CSV (`sdn.csv`, no header, `-0- ` for null) with its comments
/// file (`sdn_comments.csv`: entity number, the remarks' continuation,
/// joined exactly where the remarks were cut).
pub fn sdn_csv(sdn: &str, comments: Option<&str>) -> Result<ParsedList, ListError> {
    let mut spill: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for row in csv_rows(comments.unwrap_or_default())? {
        if let (Some(id), Some(text)) = (row.get(0), row.get(1)) {
            spill
                .entry(id.trim().to_string())
                .or_default()
                .push_str(text);
        }
    }
    let mut listed = Vec::new();
    let rows = csv_rows(sdn)?;
    for (n, row) in rows.iter().enumerate() {
        if row.len() == 1
            && row
                .get(0)
                .is_some_and(|c| c.trim().is_empty() || c.starts_with('\u{1a}'))
        {
            continue;
        }
        if row.len() < 12 {
            return Err(ListError(format!(
                "row {} has {} columns, not 12: cut short",
                n + 1,
                row.len()
            )));
        }
        let id = row[0].trim().to_string();
        let remarks = format!(
            "{}{}",
            &row[11],
            spill.get(&id).map(String::as_str).unwrap_or("")
        );
        for (code, address) in remark_addresses(&remarks) {
            listed.push(Listed {
                address,
                chain: code,
                entry_id: id.clone(),
                name: row[1].trim().to_string(),
            });
        }
    }
    Ok(finish(None, Some(rows.len()), listed))
}

/// The lists an operator's CSV holds rows of, in order of first appearance.
pub fn operator_list_names(text: &str) -> Result<Vec<String>, ListError> {
    let mut names: Vec<String> = Vec::new();
    for row in csv_rows(text)?.iter().skip(1) {
        if let Some(name) = row.get(2).map(str::trim) {
            if !name.is_empty() && !names.iter().any(|n| n == name) {
                names.push(name.to_string());
            }
        }
    }
    Ok(names)
}

/// An operator's list: a CSV with a header `address,chain,list,entry_id,reason`
/// (`chain` a chain id or `any`); only rows of `list` are taken.
pub fn operator_csv(text: &str, list: &str) -> Result<ParsedList, ListError> {
    let mut reader = csv::ReaderBuilder::new()
        .flexible(false)
        .from_reader(text.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| ListError(format!("not CSV: {e}")))?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    if header != ["address", "chain", "list", "entry_id", "reason"] {
        return Err(ListError(format!(
            "the header must be address,chain,list,entry_id,reason, not {}",
            header.join(",")
        )));
    }
    let mut listed = Vec::new();
    for (n, row) in reader.records().enumerate() {
        let row = row.map_err(|e| ListError(format!("row {}: {e}", n + 2)))?;
        if row[2].trim() != list {
            continue;
        }
        if row[0].trim().is_empty() {
            return Err(ListError(format!("row {}: no address", n + 2)));
        }
        let chain = row[1].trim().to_ascii_lowercase();
        if chain != "any" && riskintel_chains::Chain::parse(&chain).is_none() {
            return Err(ListError(format!(
                "row {}: chain {:?} is not a chain id ({}) or `any`",
                n + 2,
                row[1].trim(),
                riskintel_chains::Chain::listed()
            )));
        }
        listed.push(Listed {
            address: normalise(&row[0]),
            chain,
            entry_id: row[3].trim().to_string(),
            name: row[4].trim().to_string(),
        });
    }
    Ok(finish(None, None, listed))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An SDN entry: uid, name, (currency code, address) ids.
    type Entry<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)]);

    fn xml(entries: &[Entry], count: usize) -> String {
        let mut body = format!("<?xml version=\"1.0\" standalone=\"yes\"?>\r\n<sdnList xmlns=\"https://sanctionslistservice.ofac.treas.gov/api/PublicationPreview/exports/XML\"><publshInformation><Publish_Date>11/20/2026</Publish_Date><Record_Count>{count}</Record_Count></publshInformation>");
        for (uid, name, ids) in entries {
            body += &format!("<sdnEntry><uid>{uid}</uid><lastName>{name}</lastName><sdnType>Entity</sdnType><idList>");
            for (i, (kind, number)) in ids.iter().enumerate() {
                body += &format!("<id><uid>{uid}{i}</uid><idType>{kind}</idType><idNumber>{number}</idNumber></id>");
            }
            body += "</idList></sdnEntry>";
        }
        body + "</sdnList>"
    }

    #[test]
    fn sdn_xml_lists_every_digital_currency_address_and_refuses_a_cut_file() {
        let eth = "0xAbC0000000000000000000000000000000000001";
        let text = xml(
            &[
                (
                    "101",
                    "MIXER",
                    &[
                        ("Digital Currency Address - ETH", eth),
                        (
                            "Digital Currency Address - XBT",
                            "1B64QRxfaa35MVkf7sDjuGUYAP5izQt7Qi",
                        ),
                        ("Gender", "Male"),
                    ],
                ),
                ("102", "OTHER", &[]),
            ],
            2,
        );
        let list = sdn_xml(&text).unwrap();
        assert_eq!(list.published.as_deref(), Some("11/20/2026"));
        assert_eq!(list.listed.len(), 2);
        let e = list.listed.iter().find(|l| l.chain == "ETH").unwrap();
        assert_eq!(
            (e.address.as_str(), e.entry_id.as_str(), e.name.as_str()),
            ("0xabc0000000000000000000000000000000000001", "101", "MIXER")
        );
        assert!(list.version.starts_with("11/20/2026 "));
        assert!(sdn_xml(&xml(&[("101", "MIXER", &[])], 2)).is_err());
        assert!(sdn_xml("<sdnList><sdnEntry>").is_err());
    }

    #[test]
    fn sdn_csv_joins_remarks_cut_mid_address_with_their_comments() {
        let sdn = "33151,\"SUEX OTC, S.R.O.\",-0- ,\"CYBER2\",-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,-0- ,\"Website suex.io; Digital Currency Address - ETH 0x2F389CE8bd8ff92de3402ffce4691d17fc4f6535; alt. Digital Currency Address - XBT 1B64QRxf\"\r\n\u{1a}\r\n";
        let comments = "33151,\"aa35MVkf7sDjuGUYAP5izQt7Qi; Digital Currency Address - USDT TKz9Mcdr3f4BqjUNdxj7Ma5N7ZzS47fQsv.\"\r\n";
        let list = sdn_csv(sdn, Some(comments)).unwrap();
        let addresses: Vec<(&str, &str)> = list
            .listed
            .iter()
            .map(|l| (l.chain.as_str(), l.address.as_str()))
            .collect();
        assert!(
            addresses.contains(&("XBT", "1B64QRxfaa35MVkf7sDjuGUYAP5izQt7Qi")),
            "{addresses:?}"
        );
        assert!(addresses.contains(&("ETH", "0x2f389ce8bd8ff92de3402ffce4691d17fc4f6535")));
        assert!(addresses.contains(&("USDT", "TKz9Mcdr3f4BqjUNdxj7Ma5N7ZzS47fQsv")));
        assert!(list
            .listed
            .iter()
            .all(|l| l.entry_id == "33151" && l.name == "SUEX OTC, S.R.O."));
        assert!(sdn_csv("33151,\"SUEX\",-0- ", None).is_err());
    }

    #[test]
    fn an_operators_list_takes_its_own_rows_and_a_changed_list_a_new_version() {
        let text = "address,chain,list,entry_id,reason\n0xAbC0000000000000000000000000000000000001,eth,ours,7,drainer\nSo11111111111111111111111111111111111111112,sol,ours,8,scam\nx,any,theirs,9,other\n";
        let list = operator_csv(text, "ours").unwrap();
        assert_eq!(list.listed.len(), 2);
        assert_eq!(
            list.listed[0].address,
            "0xabc0000000000000000000000000000000000001"
        );
        let fewer = operator_csv("address,chain,list,entry_id,reason\nSo11111111111111111111111111111111111111112,sol,ours,8,scam\n", "ours").unwrap();
        assert_ne!(list.version, fewer.version);
        assert!(operator_csv("addr,chain\n1,2\n", "ours").is_err());
    }

    #[test]
    fn an_operators_chain_is_a_chain_id_or_any_and_an_entry_counts_once() {
        let a = "0xAbC0000000000000000000000000000000000001";
        let text = format!(
            "address,chain,list,entry_id,reason\n{a},ETH,ours,7,drainer\n{a},eth,ours,7,drainer again\n"
        );
        let list = operator_csv(&text, "ours").unwrap();
        assert_eq!(list.listed.len(), 1);
        assert_eq!(list.listed[0].chain, "eth");
        let wrong = format!("address,chain,list,entry_id,reason\n{a},ethereum,ours,7,x\n");
        let refused = operator_csv(&wrong, "ours").unwrap_err();
        assert!(refused.0.contains("ethereum"), "{refused}");
    }
}
