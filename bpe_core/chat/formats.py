"""The chat formats of the published tokenizers: the template each publisher ships (a Jinja file in
``bpe_core/data/chat``, byte for byte as published; see its README), the format a publisher's own library writes
(gpt-oss's harmony, Mistral's; ``scripted.py``), or OpenAI's documented estimate for GPT-4 and GPT-4o, whose chat
format OpenAI does not publish.

>>> CHAT_FORMATS["qwen3"].template_file
'Qwen-Qwen3-0.6B.jinja'
>>> sorted(name for name, chat in CHAT_FORMATS.items() if chat.estimated)
['cl100k_base', 'o200k_base']
>>> CHAT_FORMATS["llama3"].context_window
131072
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

TEMPLATES = Path(__file__).parent.parent / "data" / "chat"
# OpenAI cookbook, "How to count tokens with tiktoken": every message costs 3 tokens besides its role's and its
# text's, and every reply is primed with <|start|>assistant<|message|>, 3 more.
OPENAI_TOKENS_PER_MESSAGE = 3
OPENAI_REPLY_PRIMING = 3
# The same page's num_tokens_for_tools: what a function definition adds, by model (func_init, prop_init, prop_key,
# enum_init, enum_item, func_end), besides its name and description's tokens and each property's.
OPENAI_FUNCTION_SETTINGS = {
    "cl100k_base": (10, 3, 3, -3, 3, 12),  # gpt-4 (and gpt-3.5-turbo)
    "o200k_base": (7, 3, 3, -3, 3, 12),  # gpt-4o (and gpt-4o-mini)
}


@dataclass(frozen=True)
class ChatFormat:
    """How one published tokenizer's model receives a conversation."""

    name: str  # the published tokenizer's name (``bpe_core.pretrained.PUBLISHED``)
    title: str  # the chat model the format is taken from, as the pages name it
    source: str  # where the format comes from: the model whose template it is, or OpenAI's documentation
    template_file: str = ""  # under TEMPLATES; none: OpenAI's estimate
    bos_token: str = ""  # the template's ``bos_token`` and ``eos_token`` (the model's tokenizer_config.json)
    eos_token: str = ""
    caveat: str = ""  # what differs from the model's own prompt, in words
    script: str = ""  # a format its publisher's library writes (``SCRIPTED`` in ``prompt.py``): harmony, mistral-v3
    always_ready: bool = False  # its prompt always ends with the opening of the reply (Mistral's [/INST])
    context_window: int = 0  # the model's published context length in tokens, prompt and reply together
    context_source: str = ""  # where that length is published
    tools_note: str = ""  # said beside the count when a tools list is given and this format does not render it
    tool_messages: bool = True  # the format renders an assistant's tool calls and a tool's result
    call_arguments: str = "object"  # what its template takes as a tool call's arguments: an object, or JSON text
    call_content: str | None = ""  # a tool-calling assistant's content when it has none: "" or None (as it reads)

    @property
    def estimated(self) -> bool:
        """Whether only a count is known (OpenAI's estimate), not the prompt itself."""
        return not self.template_file and not self.script

    def template(self) -> str:
        return _template_text(self.template_file)


@functools.cache
def _template_text(file: str) -> str:
    return (TEMPLATES / file).read_text(encoding="utf-8")


def _openai(name: str, title: str, window: int, model: str) -> ChatFormat:
    return ChatFormat(
        name,
        title,
        "OpenAI's documented estimate (OpenAI cookbook, How to count tokens with tiktoken)",
        context_window=window,
        context_source=f"OpenAI's model page for {model} (platform.openai.com/docs/models/{model}): {window:,} tokens",
    )


LLAMA_WINDOW = "meta-llama/Llama-3.3-70B-Instruct's model card and config.json (max_position_embeddings): 128k"


CHAT_FORMATS = {
    chat.name: chat
    for chat in (
        ChatFormat(
            "llama3",
            "Llama 3.3 70B Instruct",
            "meta-llama/Llama-3.3-70B-Instruct",
            "meta-llama-Llama-3.3-70B-Instruct.jinja",
            bos_token="<|begin_of_text|>",
            eos_token="<|eot_id|>",
            context_window=131_072,
            context_source=LLAMA_WINDOW,
        ),
        ChatFormat(
            "qwen3",
            "Qwen3 0.6B",
            "Qwen/Qwen3-0.6B",
            "Qwen-Qwen3-0.6B.jinja",
            eos_token="<|im_end|>",
            context_window=32_768,
            context_source="Qwen/Qwen3-0.6B's model card: context length 32,768",
        ),
        ChatFormat(
            "deepseek-v3",
            "DeepSeek-V3",
            "deepseek-ai/DeepSeek-V3",
            "deepseek-ai-DeepSeek-V3.jinja",
            bos_token="<｜begin▁of▁sentence｜>",
            eos_token="<｜end▁of▁sentence｜>",
            context_window=131_072,
            context_source="deepseek-ai/DeepSeek-V3's model card: context length 128K",
            tools_note="DeepSeek-V3's template ignores the tools list (it writes tool calls and results only)",
            call_arguments="text",
            call_content=None,
        ),
        ChatFormat(
            "gemma3",
            "Gemma 3 (instruct)",
            "google/gemma-3's instruct models",
            "google-gemma-3.jinja",
            bos_token="<bos>",
            eos_token="<end_of_turn>",
            caveat="Gemma 3 has no system role: a system message opens the first user turn; roles must alternate.",
            context_window=131_072,
            context_source="google/gemma-3's model card: 128K tokens for the 4B, 12B and 27B models (1B: 32K)",
            tools_note="Gemma 3's template has no tools: the tools list is not sent",
            tool_messages=False,
        ),
        ChatFormat(
            "o200k_harmony",
            "gpt-oss",
            "openai/gpt-oss's harmony format, as the openai-harmony library writes it",
            script="harmony",
            caveat="A system message becomes the developer's instructions; openai-harmony's own system message "
            "(identity, knowledge cutoff, medium reasoning, the channels) comes first.",
            context_window=131_072,
            context_source="openai/gpt-oss-120b and gpt-oss-20b's model card and config.json: 131,072 tokens",
        ),
        ChatFormat(
            "mistral-tekken-v3",
            "Mistral (Tekken v3: NeMo, Large 2, Small 3)",
            "Mistral's instruction format, as the mistral-common library writes a chat completion request",
            script="mistral-v3",
            always_ready=True,
            caveat="The system messages lead the last user message; the prompt always ends ready for the reply.",
            context_window=131_072,
            context_source="Mistral's model pages: 128k for Mistral NeMo and Large 2 (Small 3: 32k)",
        ),
        _openai("cl100k_base", "GPT-4", 8_192, "gpt-4"),
        _openai("o200k_base", "GPT-4o", 128_000, "gpt-4o"),
    )
}


def chat_format(name: str) -> ChatFormat:
    """The chat format of the published tokenizer ``name``, or a ValueError naming those that have one."""
    if name not in CHAT_FORMATS:
        raise ValueError(f"{name!r} has no chat format here: choose one of {', '.join(CHAT_FORMATS)}")
    return CHAT_FORMATS[name]
