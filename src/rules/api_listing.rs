//! The `hex.*` API as data (`hexwar api --json`), for tools that want the functions and their
//! types without parsing the LuaLS file. It is read from the same spec (`api/spec/`) and only
//! after the LuaLS generator has checked that spec against the registered API, so the two forms
//! list the same functions with the same signatures.

use serde::Serialize;

use super::api::spec::{self, ClassDoc, FieldDoc, FunctionDoc};
use super::luals::{luals_definitions, parse_signature, split_doc, split_typed, LualsError};

/// The whole listing: values and functions directly under `hex`, each namespace, and the
/// classes and aliases the signatures name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ApiListing {
    pub api_version: u32,
    pub fields: Vec<FieldEntry>,
    pub functions: Vec<FunctionEntry>,
    pub namespaces: Vec<NamespaceEntry>,
    pub classes: Vec<ClassEntry>,
    pub aliases: Vec<AliasEntry>,
}

/// A `hex.<name>` table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NamespaceEntry {
    /// Qualified: `hex.dice`.
    pub name: String,
    pub doc: String,
    pub functions: Vec<FunctionEntry>,
}

/// One function, its signature as the spec writes it and split into parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionEntry {
    /// Qualified: `hex.dice.roll`.
    pub name: String,
    /// `roll(sides?: integer): integer`
    pub signature: String,
    pub params: Vec<TypedName>,
    /// LuaLS types, one per returned value.
    pub returns: Vec<String>,
    pub doc: String,
}

/// A parameter or a field: its name (without the `?`), its LuaLS type, whether it may be nil
/// or left out, and its description (empty for parameters).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TypedName {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub optional: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// A field directly under `hex` or of a class.
pub type FieldEntry = TypedName;

/// A class of the tables the API hands out or takes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassEntry {
    pub name: String,
    pub parent: Option<String>,
    pub doc: String,
    pub fields: Vec<FieldEntry>,
}

/// A named type (`---@alias`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AliasEntry {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: String,
    pub doc: String,
}

/// The listing of the API this build registers (an error when the spec and the registered API
/// disagree, as for the LuaLS file).
pub fn api_listing() -> Result<ApiListing, LualsError> {
    luals_definitions()?;
    let mut namespaces: Vec<NamespaceEntry> = spec::namespaces()
        .into_iter()
        .map(|ns| {
            let path = format!("hex.{}", ns.name);
            Ok(NamespaceEntry {
                functions: functions(&path, ns.functions)?,
                name: path,
                doc: ns.doc.to_string(),
            })
        })
        .collect::<Result<_, LualsError>>()?;
    namespaces.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(ApiListing {
        api_version: super::API_VERSION,
        fields: fields("hex", spec::top_fields())?,
        functions: functions("hex", spec::top_functions())?,
        namespaces,
        classes: spec::classes()
            .iter()
            .map(class)
            .collect::<Result<_, _>>()?,
        aliases: spec::aliases()
            .iter()
            .map(|(name, ty, doc)| AliasEntry {
                name: name.to_string(),
                ty: ty.to_string(),
                doc: doc.to_string(),
            })
            .collect(),
    })
}

/// A spec problem the LuaLS check lets through cannot happen; reported as a mismatch anyway
/// rather than assumed away.
fn mismatch(owner: &str, why: String) -> LualsError {
    LualsError::Mismatch(vec![format!("{owner}: {why}")])
}

/// The functions of one table, sorted by name as the LuaLS file lists them.
fn functions(path: &str, docs: &[FunctionDoc]) -> Result<Vec<FunctionEntry>, LualsError> {
    let mut list = Vec::with_capacity(docs.len());
    for line in docs {
        let (decl, doc) = split_doc(line);
        let sig = parse_signature(decl).map_err(|e| mismatch(path, e))?;
        list.push(FunctionEntry {
            name: format!("{path}.{}", sig.name),
            signature: decl.to_string(),
            params: sig
                .params
                .iter()
                .map(|(name, ty)| typed(name, ty, None))
                .collect(),
            returns: sig.returns.iter().map(|r| r.to_string()).collect(),
            doc: doc.to_string(),
        });
    }
    list.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(list)
}

fn fields(owner: &str, docs: &[FieldDoc]) -> Result<Vec<FieldEntry>, LualsError> {
    docs.iter()
        .map(|field| {
            let (decl, doc) = split_doc(field);
            let (name, ty) = split_typed(decl)
                .ok_or_else(|| mismatch(owner, format!("field '{decl}' has no type")))?;
            Ok(typed(name, ty, Some(doc)))
        })
        .collect()
}

fn class(class: &ClassDoc) -> Result<ClassEntry, LualsError> {
    Ok(ClassEntry {
        name: class.name.to_string(),
        parent: class.parent.map(str::to_string),
        doc: class.doc.to_string(),
        fields: fields(class.name, class.fields)?,
    })
}

/// `name?` is optional; `...` (varargs) is kept as written.
fn typed(name: &str, ty: &str, doc: Option<&str>) -> TypedName {
    let bare = name.strip_suffix('?');
    TypedName {
        name: bare.unwrap_or(name).to_string(),
        ty: ty.to_string(),
        optional: bare.is_some(),
        doc: doc.map(str::to_string),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_line_becomes_its_typed_parts() {
        let list = functions(
            "hex.dice",
            &["roll(sides?: integer, ...: any): integer, string? -- A roll."],
        )
        .unwrap();
        assert_eq!(
            list,
            [FunctionEntry {
                name: "hex.dice.roll".into(),
                signature: "roll(sides?: integer, ...: any): integer, string?".into(),
                params: vec![
                    TypedName {
                        name: "sides".into(),
                        ty: "integer".into(),
                        optional: true,
                        doc: None
                    },
                    TypedName {
                        name: "...".into(),
                        ty: "any".into(),
                        optional: false,
                        doc: None
                    },
                ],
                returns: vec!["integer".into(), "string?".into()],
                doc: "A roll.".into(),
            }]
        );
    }
}
