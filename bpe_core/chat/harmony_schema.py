"""A function's JSON schema as gpt-oss reads it: the TypeScript-like type openai-harmony writes into the
developer message's ``functions`` namespace (``json_schema_to_typescript`` and ``template_tools_section`` of its
``encoding.rs``, followed rule by rule, quirks included: an enum's default unquoted, a oneOf's first description
not repeated).

>>> print(typescript({"type": "object", "properties": {"city": {"type": "string", "description": "A city"},
...                   "unit": {"type": "string", "enum": ["c", "f"]}}, "required": ["city"]}))
{
// A city
city: string,
unit?: "c" | "f",
}
"""

from __future__ import annotations

import json

MAX_PROMPT_CHARS = 1_000_000  # as a template's rendering may write (jinja_render; jinja2 is not imported here)


def tools_section(tools) -> tuple[str, list[str], str]:
    """The developer message's tools section as (its opening, each tool's text, its closing); the tools' texts
    are joined by a blank line.

    >>> from bpe_core.chat.tools import Tool
    >>> opening, texts, closing = tools_section([Tool("f", "Does f.", None, {})])
    >>> print(opening + "\\n\\n".join(texts) + closing)
    # Tools
    <BLANKLINE>
    ## functions
    <BLANKLINE>
    namespace functions {
    <BLANKLINE>
    // Does f.
    type f = () => any;
    <BLANKLINE>
    } // namespace functions
    """
    texts = []
    for tool in tools:
        comments = [f"// {line}" for line in _lines(tool.description or "")]
        signature = f"(_: {typescript(tool.parameters, '')})" if tool.parameters is not None else "()"
        texts.append("\n".join([*comments, f"type {tool.name} = {signature} => any;"]))
        if sum(map(len, texts)) > MAX_PROMPT_CHARS:  # indented lines of a deeply nested schema add up
            raise ValueError(f"the tools, as gpt-oss reads them, take more than {MAX_PROMPT_CHARS:,} characters")
    return "# Tools\n\n## functions\n\nnamespace functions {\n\n", texts, "\n\n} // namespace functions"


def _lines(text: str) -> list[str]:
    """Rust's ``str::lines``: split at a newline (a carriage return before it dropped), no empty last line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _json(value) -> str:
    """A value as serde_json's Display writes it: compact, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _is_enum(schema) -> bool:
    return isinstance(schema.get("enum"), list) and bool(schema["enum"])


def _default_comment(schema, enum_as_json: bool = False) -> str:
    """``default: ...``: a text in quotes unless the schema is an enum (then bare, or as JSON in a oneOf at the top),
    anything else as JSON."""
    default = schema["default"]
    if isinstance(default, str) and not _is_enum(schema):
        return f'default: "{default}"'
    if isinstance(default, str) and not enum_as_json:
        return f"default: {default}"
    return f"default: {_json(default)}"


def _nullable(schema, text: str) -> str:
    return f"{text} | null" if schema.get("nullable") is True and "null" not in text else text


def typescript(schema, indent: str = "") -> str:
    """``json_schema_to_typescript``: a schema's type, objects spelled out with their properties' comments."""
    if not isinstance(schema, dict):
        return "any"
    if isinstance(schema.get("oneOf"), list):
        return _one_of(schema["oneOf"], indent)
    kind = schema.get("type")
    if isinstance(kind, list):
        names = ["number" if name == "integer" else name for name in kind if isinstance(name, str)]
        if names:
            return " | ".join(names)
    if not isinstance(kind, str):
        return "any"
    if kind == "object":
        return _object(schema, indent)
    if kind == "string":
        enum = schema.get("enum")
        names = [f'"{value}"' for value in enum if isinstance(value, str)] if isinstance(enum, list) else []
        return " | ".join(names) if names else "string"
    if kind == "array":
        return f"{typescript(schema['items'], indent)}[]" if "items" in schema else "Array<any>"
    return {"number": "number", "integer": "number", "boolean": "boolean"}.get(kind, "any")


def _one_of(variants: list, indent: str) -> str:
    out = ""
    for variant in variants:
        out += f"\n{indent} | " + _nullable(_as_dict(variant), typescript(variant, indent + "   "))
        comments = _variant_comments(_as_dict(variant), None, skip_description=False, enum_as_json=True)
        out += f" // {' '.join(comments)}" if comments else ""
    return out


def _as_dict(value) -> dict:
    return value if isinstance(value, dict) else {}


def _variant_comments(variant: dict, property_description, skip_description: bool, enum_as_json=False) -> list[str]:
    comments = []
    description = variant.get("description")
    if not skip_description and isinstance(description, str) and description != property_description:
        comments.append(description)
    if "default" in variant:
        comments.append(_default_comment(variant, enum_as_json))
    return comments


def _object(schema: dict, indent: str) -> str:
    out = f"{indent}// {schema['description']}\n" if isinstance(schema.get("description"), str) else ""
    out += "{\n"
    properties = schema.get("properties")
    if isinstance(properties, dict):
        required = schema.get("required")
        required = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
        for key, value in properties.items():
            out += _property(key, _as_dict(value), key in required, indent)
    return out + f"{indent}}}"


def _property(key: str, value: dict, required: bool, indent: str) -> str:
    """One property: its comments (title, description, examples), its name and type, and its default."""
    out = f"{indent}// {value['title']}\n{indent}//\n" if isinstance(value.get("title"), str) else ""
    one_of = value.get("oneOf")
    if one_of is None and isinstance(value.get("description"), str):
        out += f"{indent}// {value['description']}\n"
    examples = value.get("examples")
    if isinstance(examples, list) and examples:
        out += f"{indent}// Examples:\n"
        out += "".join(f'{indent}// - "{example}"\n' for example in examples if isinstance(example, str))
    optional = "" if required else "?"
    if isinstance(one_of, list):
        return out + _one_of_property(key + optional, value, one_of, indent)
    if one_of is not None:  # a oneOf that is not a list: rendered as the property's own type, its default unsaid
        return out + f"{indent}{key}{optional}: {_nullable(value, typescript(value, indent + '    '))},\n"
    default = f" // {_default_comment(value)}" if "default" in value else ""
    return out + f"{indent}{key}{optional}: {_nullable(value, typescript(value, indent + '    '))},{default}\n"


def _one_of_property(name: str, value: dict, variants: list, indent: str) -> str:
    """A property whose type is one of several: its description above unless the first variant says the same."""
    description = value.get("description") if isinstance(value.get("description"), str) else None
    first = _as_dict(variants[0]) if variants else {}
    above = description is not None and first.get("description") != description
    out = f"{indent}// {description}\n" if above else ""
    if "default" in value:
        out += f"{indent}// {_default_comment(value)}\n"
    out += f"{indent}{name}:\n"
    for place, variant in enumerate(variants):
        variant = _as_dict(variant)
        out += f"{indent} | " + _nullable(variant, typescript(variant, indent + "   "))
        comments = _variant_comments(variant, description, skip_description=place == 0 and above)
        out += (f" // {' '.join(comments)}" if comments else "") + "\n"
    return out + f"{indent},\n"
