"""The command line's commands and their arguments, as a table; ``build_parser`` turns it into argparse's parser.

``bpe_core.cli`` runs the command the parser names (``args.command``).
"""

from __future__ import annotations

import argparse
from typing import Any, NamedTuple

from . import settings_table
from .languages import ENGLISH
from .pretrained import PRETRAINED
from .settings_table import SETTINGS, STOP_BY, Setting, setting
from .train import MAX_VOCAB_CHARS

BLOCK_BYTES = 16 * 1024 * 1024  # count: a block is one task, counted in a few seconds
MODEL_HELP = f"a model file, or the name of a published tokenizer ({', '.join(PRETRAINED)})"


class Argument(NamedTuple):
    """One ``add_argument`` call: its names and its settings."""

    flags: tuple[str, ...]
    settings: dict[str, Any]


class OneOf(NamedTuple):
    """Arguments of which exactly one must be given."""

    arguments: tuple[Argument, ...]


class Command(NamedTuple):
    name: str
    about: str
    arguments: tuple[Argument | OneOf, ...] = ()
    on_a_model: bool = True  # its first argument is a model file or a published tokenizer's name
    details: str = ""  # its --help's text, kept as written (paragraphs), when there is more to say than ``about``


def argument(*flags: str, **settings: Any) -> Argument:
    return Argument(flags, settings)


def _output(about: str | None = None) -> Argument:
    return argument("-o", "--output", required=True, help=about)


def setting_argument(row: Setting) -> Argument:
    """A training setting's flag, from its row in ``bpe_core.settings_table`` (parsed as ``args.<its name>``)."""
    settings: dict[str, object] = {"dest": row.name, "help": (row.flag_help or row.help).replace("%", "%%")}
    if row.kind == settings_table.SWITCH:
        settings["action"] = "store_true"
    elif row.kind == settings_table.TEXTS:  # repeated, one text each
        settings.update(action="append", default=[], metavar="TOKEN")
    else:
        settings.update(type=int if row.kind == settings_table.COUNT else str, metavar=row.name.upper())
        if row.name not in STOP_BY:  # the size has no default: the command names one
            settings["default"] = row.default or None
        if row.kind == settings_table.CHOICE:
            settings.update(choices=row.choices, metavar=None)
    return Argument((row.flag,), settings)


SPLIT = setting_argument(setting("split"))
SPECIAL = setting_argument(setting("special_tokens"))

TRAIN: tuple[Argument | OneOf, ...] = (
    argument("corpus", nargs="?"),
    argument("--counts", metavar="TABLE", help="learn from a counts table (python -m bpe_core count) instead"),
    _output("where to write the model JSON"),
    OneOf(tuple(setting_argument(setting(name)) for name in STOP_BY)),
    *(setting_argument(row) for row in SETTINGS if row.flag and row.name not in STOP_BY),
    argument(
        "--max-vocab-chars",
        type=int,
        default=MAX_VOCAB_CHARS,
        metavar="N",
        help=f"stop before the merged tokens' text passes N characters (default {MAX_VOCAB_CHARS:,})",
    ),
    argument(
        "--trace",
        action="store_true",
        help="also write each step's race of best pairs (the Merges page's animation; a larger file)",
    ),
    argument(
        "--lines",
        action="store_true",
        help="read the file line by line as HF tokenizers and sentencepiece do: no piece crosses a line end",
    ),
)

COUNT = (
    argument("corpus", nargs="+", help="text files; each is its own document"),
    _output("where to write the counts table (TSV)"),
    SPLIT,
    SPECIAL,
    argument("--lines", action="store_true", help="read the files line by line, as train --lines does"),
    argument("--workers", type=int, default=2, help="local Dask worker processes (0: count in this process)"),
    argument(
        "--scheduler",
        metavar="ADDRESS",
        help="a Dask scheduler (tcp://host:8786) instead of local "
        "workers; every worker must see the files at the same path",
    ),
    argument("--block-size", type=int, default=BLOCK_BYTES, metavar="BYTES", help="bytes per task"),
)

ENCODE = (
    argument("text", nargs="?"),
    argument("-i", "--input", metavar="FILE", help="encode this UTF-8 file ('-' for standard input)"),
    argument(
        "--ids-only",
        action="store_true",
        help="print only the ids, separated by spaces, streamed: a file of any size in flat memory",
    ),
    argument(
        "--no-special",
        action="store_true",
        help="encode special tokens' text as ordinary text instead of as the special tokens",
    ),
    argument(
        "--add-special",
        action="store_true",
        help="add the model's own special tokens, as HF's add_special_tokens=True (Llama 2's <s> first)",
    ),
)

DECODE = (
    argument("ids", nargs="+"),
    argument(
        "--skip-special",
        action="store_true",
        default=None,
        help="leave special tokens out (the default for the open models, as HF's decode does)",
    ),
    argument(
        "--keep-special",
        action="store_false",
        dest="skip_special",
        help="write special tokens out (the default for the others, as tiktoken's decode does)",
    ),
)

TRUNCATE = (
    argument("limit", type=int, metavar="N", help="the most tokens the text may take"),
    argument("--add-special", action="store_true", help="count the model's own special tokens too (Llama 2's <s>)"),
    argument("--no-special", action="store_true", help="count special tokens' text as ordinary text"),
)

CHAT_HELP = """print the ids a chat model receives for a conversation, ready for the assistant's reply.

The file is OpenAI's request: {"messages": [...], "tools": [...]}; "tools" (at most 64 functions, 100,000
characters of JSON) is optional, an assistant's message may hold "tool_calls" and a "tool" message a call's result.

Exact (ids equal to the publishers' own libraries): Llama 3.3, Qwen3 and DeepSeek-V3 by their shipped templates,
tools by each template's own tools branch (transformers' apply_chat_template); gpt-oss by harmony, the tools as
the functions namespace of the developer message (openai-harmony); Mistral Tekken v3, the tools as
[AVAILABLE_TOOLS] (mistral-common).  DeepSeek-V3's template ignores the tools list (it writes calls and results) and
Gemma 3's has no tools: --count says so ("tools_note").

An estimate: GPT-4 and GPT-4o (cl100k_base, o200k_base), whose format OpenAI does not publish: OpenAI's documented
method (its cookbook, "How to count tokens with tiktoken"), for the messages and the function definitions alike;
their tool calls and results are counted as messages' text.

--count prints the total, each message's count, the tools', the format's, whether it is an estimate, the model's
published context window and the tokens that remain for the reply (below 0: past the window)."""

CHAT = (
    argument(
        "name", help="a published tokenizer whose model has a chat format (llama3, qwen3, gemma3, o200k_harmony, ...)"
    ),
    argument(
        "file",
        help='a JSON file {"messages": [{"role": ..., "content": ...}, ...], "tools": [...]} (- for standard input)',
    ),
    argument(
        "--as-it-stands",
        action="store_true",
        help="the conversation as it stands, without the opening of the assistant's reply (add_generation_prompt off)",
    ),
    argument(
        "--count",
        action="store_true",
        help="print the counts instead of the ids: in all, each message's text, the tools', the format's (GPT-4 and "
        "GPT-4o: OpenAI's documented estimate only), the context window and what remains of it",
    ),
)

PREMIUM = (
    argument("names", nargs="+", metavar="NAME", help=f"{MODEL_HELP}; several are measured one after another"),
    argument(
        "--texts",
        metavar="FILE",
        help="a JSON object from a language code to its text, the same content in each language ('-' for standard "
        "input; default: the preamble of the Universal Declaration of Human Rights in 58 languages, bundled)",
    ),
    argument(
        "--reference",
        metavar="CODE",
        default=ENGLISH,
        help=f"the language the others are divided by (default {ENGLISH}: English, as the bundled texts code it)",
    ),
    argument("--format", choices=["tsv", "json"], default="tsv", help="a table with a header line (tsv), or JSON"),
)

COMMANDS = (
    Command("train", "learn merges from a UTF-8 text file ('-' for standard input)", TRAIN, on_a_model=False),
    Command("count", "count the pieces of big UTF-8 files in blocks, on Dask workers", COUNT, on_a_model=False),
    Command("merges", "print the merges, one JSON array per line"),
    Command("encode", "print {ids, tokens} for TEXT (or -i FILE, or standard input)", ENCODE),
    Command("decode", "print the text for the ids", DECODE),
    Command(
        "truncate",
        "write the longest beginning of standard input that takes at most N tokens (whole characters)",
        TRUNCATE,
    ),
    Command(
        "chat",
        "print the ids a chat model receives for a conversation, ready for the assistant's reply",
        CHAT,
        on_a_model=False,
        details=CHAT_HELP,
    ),
    Command(
        "premium",
        "print each language's tokens, its premium (its tokens / the reference language's), bytes and characters "
        "per token, under each tokenizer",
        PREMIUM,
        on_a_model=False,
    ),
    Command(
        "export",
        "write an HF tokenizer.json (hf) or vocab.json + merges.txt (gpt2)",
        (argument("--format", choices=["hf", "gpt2"], required=True), _output("a file for hf, a folder for gpt2")),
    ),
    Command(
        "import",
        "read a tokenizer.json or vocab.json + merges.txt into our format",
        (argument("paths", nargs="+"), _output()),
        on_a_model=False,
    ),
)


class _OneLineParser(argparse.ArgumentParser):
    """Argument errors as one line with a pointer to --help, instead of argparse's usage block."""

    def error(self, message: str):
        self.exit(2, f"error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    """The parser of every command in ``COMMANDS``; the command given is ``args.command``.

    >>> args = build_parser().parse_args(["train", "corpus.txt", "--merges", "10", "-o", "model.json"])
    >>> args.command, args.corpus, args.merges, args.vocab_size, args.split, args.special_tokens
    ('train', 'corpus.txt', 10, None, 'whitespace', [])
    >>> build_parser().parse_args(["decode", "gpt2", "31373", "--keep-special"]).skip_special
    False
    """
    parser = _OneLineParser(prog="python -m bpe_core", description="Train and use BPE tokenizers.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_OneLineParser)
    for command in COMMANDS:
        shown: dict[str, Any] = {
            "description": command.details,
            "formatter_class": argparse.RawDescriptionHelpFormatter,
        }
        sub = commands.add_parser(command.name, help=command.about, **(shown if command.details else {}))
        if command.on_a_model:
            sub.add_argument("model", help=MODEL_HELP)
        for entry in command.arguments:
            if isinstance(entry, OneOf):
                group = sub.add_mutually_exclusive_group(required=True)
                for flags, settings in entry.arguments:
                    group.add_argument(*flags, **settings)
            else:
                sub.add_argument(*entry.flags, **entry.settings)
    return parser
