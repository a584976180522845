"""Encode / Decode: how a tokenizer cuts text, why it cuts it there, and ids back to text."""

from __future__ import annotations

import streamlit as st

from bpe_core import Token, Tokenizer, UnknownIdError, load_gpt2
from bpe_core.pretokenize import split_text
from viz import model_io, state
from viz.encode_tools import describe_round_trip, markdown_literal, parse_ids, token_rows, unique_pieces
from viz.token_html import render_explain, render_legend, render_tokens

EXAMPLE_TEXT = (
    "Hello, world! The café opens at 9:30.\n"
    "Tokenizers don't see words 🙂 they see pieces: unbelievably, interesting…"
)
SOURCES = ("model", "prefix", "gpt2")  # the session's model, a prefix of it, GPT-2
MAX_TEXT_CHARS = 100_000
MAX_PIECES = 200  # choices offered under "Why this split"
MAX_EXPLAIN_CHARS = 200  # a longer piece is cut before replaying it merge by merge

# Widget keys start with "encode_"; our own state keys with "bpe_encode_".
TEXT_KEY = "bpe_encode_text"  # the text survives a visit to another page
PREFIX_KEY = "bpe_encode_prefix"  # (model, merges, prefix tokenizer): one cut kept per session


def prefix_of(model: Tokenizer, merges: int) -> Tokenizer:
    """``model.prefix(merges)``, remembered so reruns at the same slider value are free."""
    cached = st.session_state.get(PREFIX_KEY)
    if cached is not None and cached[0] is model and cached[1] == merges:
        return cached[2]
    prefix = model.prefix(merges)
    st.session_state[PREFIX_KEY] = (model, merges, prefix)
    return prefix


def prefix_title(model: Tokenizer) -> str:
    """What a prefix of ``model`` is called: of the trained model, of a loaded file, of GPT-2."""
    return f"Prefix of {model_io.model_title(model)}" if model.name else "Prefix of the trained model"


def source_label(source: str, model: Tokenizer) -> str:
    """The radio's labels name the session's model: trained here, loaded from a file, or GPT-2."""
    return {"model": model_io.model_title(model), "prefix": prefix_title(model), "gpt2": "GPT-2 (real)"}[source]


def choose_tokenizer() -> Tokenizer:
    model = state.current_model()
    source = st.radio("Tokenizer", SOURCES, key="encode_source", horizontal=True,
                      format_func=lambda option: source_label(option, model))
    if source == "gpt2":
        return load_gpt2()
    if source == "prefix":
        total = len(model.merges)
        if total == 0:
            st.info("This model has no merges, so every prefix is the model itself.")
            return model
        # Set the slider through session state (not value=) so a smaller new model clamps it.
        current = st.session_state.get("encode_prefix_merges", total)
        st.session_state["encode_prefix_merges"] = min(current, total)
        merges = st.slider("Merges to keep (the first k merges of this model)", 0, total,
                           key="encode_prefix_merges")
        return prefix_of(model, merges)
    return model


def describe(tok: Tokenizer) -> str:
    config = tok.config
    units = "byte-level" if config.units == "bytes" else "characters"
    marker = f", word end marked {config.end_of_word}" if config.end_of_word else ""
    if tok.stop_reason == "prefix":
        size = f"{prefix_title(tok)}: {tok.stop_message}"
    else:
        size = f"{model_io.model_title(tok)}: {len(tok.merges):,} merges"
    return (f"{size}, vocabulary of {len(tok.vocab):,} tokens; "
            f"split: {config.split}, units: {units}{marker}.")


def show_numbers(tok: Tokenizer, tokens: list[Token], text: str) -> None:
    ids = [token.id for token in tokens]
    tokens_col, chars_col, ratio_col = st.columns(3)
    tokens_col.metric("Tokens", f"{len(ids):,}")
    chars_col.metric("Characters", f"{len(text):,}")
    ratio_col.metric("Characters per token", f"{len(text) / len(ids):.2f}" if ids else "–")
    st.caption("Token ids (copy them into the decoder below):")
    st.code(", ".join(map(str, ids)), language=None, wrap_lines=True)

    losses = describe_round_trip(text, tok.decode(ids))
    if losses:
        st.warning("**Round trip loses text**: `decode(encode(text)) != text`\n"
                   + "\n".join(f"- {markdown_literal(note)}" for note in losses))
    else:
        st.success("**Round trip OK**: `decode(encode(text)) == text`")

    if st.toggle("Show the token table", key="encode_show_table"):
        st.dataframe(token_rows(tokens, text), hide_index=True)


def show_why(tok: Tokenizer, text: str) -> None:
    st.subheader("Why this split?")
    pieces = unique_pieces(split_text(text, tok.config.split), limit=MAX_PIECES)
    if not pieces:
        st.caption("Type some text above to replay how one of its pieces is encoded.")
        return
    st.caption("The pre-tokenizer cuts the text into pieces; merges never cross a piece. Pick one to replay "
               "its merges in training order (green outline: what that step made).")
    longest = max(range(len(pieces)), key=lambda index: len(pieces[index]))
    piece = st.selectbox("Piece", pieces, index=longest, key="encode_piece",
                         format_func=lambda p: p.replace(" ", "·").replace("\n", "↵").replace("\t", "→"))
    if len(piece) > MAX_EXPLAIN_CHARS:
        st.caption(f"This piece is long; replaying its first {MAX_EXPLAIN_CHARS} characters.")
        piece = piece[:MAX_EXPLAIN_CHARS]
    counts = [step.count for step in tok.steps] if tok.has_counts else None
    history = tok.explain(piece)
    st.html(render_explain(history, tok.merges, counts=counts))
    if len(history) == 1:
        st.caption("No merge applies to this piece: it stays as its base symbols.")
    if tok.config.units == "bytes":
        st.caption("Byte-level symbols use GPT-2's byte alphabet: Ġ is a space, Ċ a newline, Ã© the bytes of é.")


def fill_decoder(ids: list[int]) -> None:
    st.session_state["encode_ids"] = ", ".join(map(str, ids))


def show_decoder(tok: Tokenizer, example_ids: list[int]) -> None:
    st.subheader("Decode")
    input_col, button_col = st.columns([4, 1], vertical_alignment="bottom")
    with button_col:
        st.button("Use ids above", on_click=fill_decoder, args=(example_ids,), key="encode_fill_ids")
    with input_col:
        raw_ids = st.text_input("Token ids (comma or space separated)", key="encode_ids",
                                placeholder=", ".join(map(str, example_ids[:8])) or "15496, 11, 0")
    if not raw_ids.strip():
        return
    try:
        decoded = tok.decode(parse_ids(raw_ids))
    except UnknownIdError as error:
        st.error(f"Cannot decode: {error}.")
        return
    except ValueError as error:
        st.error(f"Cannot read the ids: {error}.")
        return
    st.caption("Decoded text:")
    st.code(decoded, language=None, wrap_lines=True)
    if "\ufffd" in decoded:
        st.caption("� marks bytes that do not form a whole character: an id there holds only part of one.")


st.title("Encode / Decode")
st.caption("Type text and see it cut into tokens. Hover a token for its id, bytes and the merge that made it.")
with st.expander("Load a tokenizer", icon=":material/upload_file:"):
    model_io.upload_tokenizer("encode")
    model_io.use_gpt2_button("encode")

tokenizer = choose_tokenizer()
st.caption(describe(tokenizer))

if "encode_text" not in st.session_state:
    st.session_state["encode_text"] = st.session_state.get(TEXT_KEY, EXAMPLE_TEXT)
text = st.text_area("Text to encode", key="encode_text", height=120, max_chars=MAX_TEXT_CHARS)
st.session_state[TEXT_KEY] = text

try:
    tokens = tokenizer.encode_with_spans(text)
except ValueError as error:
    st.error(f"This text cannot be encoded: {error}")
    tokens = None

if tokens is not None:
    st.html(render_tokens(tokens, text, byte_level=tokenizer.config.units == "bytes",
                          end_of_word=tokenizer.config.end_of_word, created_at=tokenizer.created_at))
    st.html(render_legend(tokens, text))
    show_numbers(tokenizer, tokens, text)
    show_why(tokenizer, text)
show_decoder(tokenizer, [token.id for token in tokens or []])
