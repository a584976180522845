"""A tiny WordPiece tokenizer.json, as the tokenizers library writes one: a file the app must refuse (it runs BPE
only), shared by the views' and the browser's tests of tokenizer files."""

WORDPIECE = {
    "version": "1.0",
    "added_tokens": [],
    "normalizer": None,
    "pre_tokenizer": {"type": "Whitespace"},
    "model": {
        "type": "WordPiece",
        "unk_token": "[UNK]",
        "continuing_subword_prefix": "##",
        "max_input_chars_per_word": 100,
        "vocab": {"[UNK]": 0, "un": 1, "##able": 2},
    },
}
