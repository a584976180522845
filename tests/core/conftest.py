"""The engine's tests' fixtures over the publishers' own chat libraries (each skips the test where its library is not
installed): openai-harmony for gpt-oss, mistral-common for Mistral's Tekken v3."""

from __future__ import annotations

import os
from importlib import resources

import pytest

from bpe_core.pretrained import DATA


@pytest.fixture(scope="module")
def harmony():
    library = pytest.importorskip("openai_harmony")
    os.environ["TIKTOKEN_ENCODINGS_BASE"] = str(DATA)  # o200k_base's ranks, shipped: no network
    return library, library.load_harmony_encoding(library.HarmonyEncodingName.HARMONY_GPT_OSS)


@pytest.fixture(scope="module")
def mistral():
    library = pytest.importorskip("mistral_common")
    from mistral_common.protocol.instruct import messages as kinds
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    tokenizer = MistralTokenizer.from_file(str(resources.files(library) / "data" / "tekken_240911.json"))
    by_role = {"system": kinds.SystemMessage, "user": kinds.UserMessage, "assistant": kinds.AssistantMessage}

    def encode(messages):
        request = ChatCompletionRequest(messages=[by_role[m["role"]](content=m["content"]) for m in messages])
        return tokenizer.encode_chat_completion(request)

    return encode
