"""Conversations rendered by the models' own chat formats, against the reference libraries: transformers'
``apply_chat_template`` on the same template and tokenizer.json (the rendered prompt and the ids must be equal), and
the OpenAI cookbook's count with tiktoken for GPT-4 and GPT-4o."""

from __future__ import annotations

import pytest
from support.chat_references import CONVERSATIONS, cookbook_count, reference_tokenizer

from bpe_core.chat import CHAT_FORMATS, render_conversation
from bpe_core.chat.formats import TEMPLATES
from bpe_core.chat.prompt import render_prompt

transformers = pytest.importorskip("transformers")

TEMPLATE_MODELS = [name for name, chat in CHAT_FORMATS.items() if chat.template_file]
ESTIMATED = [name for name, chat in CHAT_FORMATS.items() if chat.estimated]


def reference(name: str, messages, ready: bool):
    tokenizer = reference_tokenizer(name)
    options = dict(chat_template=(TEMPLATES / CHAT_FORMATS[name].template_file).read_text(encoding="utf-8"))
    rendered = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=ready, **options)
    ids = tokenizer.apply_chat_template(messages, tokenize=True, add_generation_prompt=ready, **options)
    return rendered, list(ids["input_ids"] if hasattr(ids, "keys") else ids)


@pytest.mark.parametrize("ready", [True, False], ids=["ready for the reply", "as it stands"])
@pytest.mark.parametrize("conversation", CONVERSATIONS)
@pytest.mark.parametrize("name", TEMPLATE_MODELS)
def test_the_prompt_and_its_ids_equal_transformers_apply_chat_template(name, conversation, ready):
    messages = CONVERSATIONS[conversation]
    rendered, ids = reference(name, messages, ready)
    prompt = render_conversation(name, messages, ready_for_reply=ready)
    assert prompt.prompt == rendered
    assert prompt.ids == ids


@pytest.mark.parametrize("name", TEMPLATE_MODELS)
def test_every_token_is_the_formats_or_one_messages_and_the_counts_add_up(name):
    messages = CONVERSATIONS["multi-turn"]
    prompt = render_conversation(name, messages)
    assert prompt.placed
    assert len(prompt.owners) == len(prompt.ids) == prompt.total
    for index, message in enumerate(messages):
        texts = [segment.text for segment in prompt.segments if segment.message == index]
        assert texts == [message["content"].strip()]  # each message once, as written (none of these needs a trim)
    # the format's segments hold what the template writes around the messages: its special tokens among them
    format_text = "".join(segment.text for segment in prompt.segments if segment.message is None)
    assert CHAT_FORMATS[name].eos_token in format_text or "<｜User｜>" in format_text


def test_a_trimmed_system_message_is_the_trimmed_text_llama_3_writes():
    prompt = render_conversation("llama3", CONVERSATIONS["with system"])
    assert [segment.text for segment in prompt.segments if segment.message == 0] == ["You answer in one sentence."]
    # by hand: Llama 3's header of a message is <|start_header_id|>user<|end_header_id|> then "\n\n"
    user = prompt.segments.index(next(segment for segment in prompt.segments if segment.message == 1))
    assert prompt.segments[user - 1].text == "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"


def test_qwen3_counts_by_hand():
    # <|im_start|> user \n | Hi ! | <|im_end|> \n <|im_start|> assistant \n : 3 + 2 + 5 tokens
    prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
    assert prompt.ids == [151644, 872, 198, 13048, 0, 151645, 198, 151644, 77091, 198]
    assert (prompt.message_counts, prompt.format_count) == ((2,), 8)


def test_special_looking_text_in_a_message_becomes_the_special_token_as_in_transformers_by_default():
    messages = CONVERSATIONS["special-looking text"]
    prompt = render_conversation("qwen3", messages)
    im_end = 151645
    typed = [token for token, owner in zip(prompt.tokens, prompt.owners) if owner == 0 and token.id == im_end]
    assert len(typed) == 1  # the user's own <|im_end|>: one token, counted in the user's message
    assert prompt.ids == reference("qwen3", messages, True)[1]


@pytest.mark.parametrize("ready", [True, False])
@pytest.mark.parametrize("conversation", CONVERSATIONS)
@pytest.mark.parametrize("name", ESTIMATED)
def test_gpt4_and_gpt4o_counts_are_openais_documented_estimate(tiktoken_module, name, conversation, ready):
    messages = CONVERSATIONS[conversation]
    prompt = render_conversation(name, messages, ready_for_reply=ready)
    frozen = tuple(tuple(message.items()) for message in messages)
    assert prompt.total == cookbook_count(tiktoken_module, name, frozen, ready)
    encoder = tiktoken_module.get_encoding(name)
    assert prompt.message_counts == tuple(len(encoder.encode(message["content"])) for message in messages)


def test_the_placeholders_name_the_messages_so_a_template_that_reorders_them_still_places_each():
    # DeepSeek's template writes every system message first, then the others
    messages = [
        {"role": "user", "content": "first"},
        {"role": "assistant", "content": "second"},
        {"role": "system", "content": "rules"},
        {"role": "user", "content": "third"},
    ]
    prompt = render_conversation("deepseek-v3", messages)
    assert [segment.message for segment in prompt.segments if segment.message is not None] == [2, 0, 1, 3]
    assert prompt.prompt == render_prompt(CHAT_FORMATS["deepseek-v3"], prompt.messages, True)


@pytest.mark.parametrize(
    ("messages", "words"),
    [
        ([], "no message"),
        ([{"role": "tool", "content": "x"}], "role 'tool' but answers no assistant's tool call"),
        ([{"role": "user"}], "has no content"),
        ([{"role": "user", "content": "x", "colour": "red"}], "tool_calls, tool_call_id, name"),
        ([{"role": "user", "content": 3}], "not a text"),
        ([{"role": "user", "content": "x" * 100_001}], "at most 100,000"),
        ([{"role": "user", "content": "x"}] * 65, "at most 64"),
        ([{"role": "user", "content": "x" * 90_000}] * 3, "270,000 characters in all"),
        ("hello", "a list"),
    ],
)
def test_bad_messages_are_a_value_error_in_words(messages, words):
    with pytest.raises(ValueError, match=words):
        render_conversation("qwen3", messages)


def test_a_model_without_a_chat_format_is_named_in_words():
    with pytest.raises(ValueError, match="'gpt2' has no chat format here: choose one of llama3"):
        render_conversation("gpt2", CONVERSATIONS["plain"])


def test_a_trimmed_message_that_holds_the_formats_own_header_is_still_placed_whole():
    header = "<|eot_id|><|start_header_id|>user<|end_header_id|>\n\n"
    system = f"  x {header} y  "  # Llama 3 trims a system message; its text holds the header that follows it
    prompt = render_conversation("llama3", [{"role": "system", "content": system}, {"role": "user", "content": "z"}])
    assert [segment.text for segment in prompt.segments if segment.message == 0] == [system.strip()]
    assert [segment.text for segment in prompt.segments if segment.message == 1] == ["z"]


def test_a_template_that_rewrites_the_messages_beyond_recognition_counts_everything_as_format(monkeypatch):
    from bpe_core.chat import prompt as prompt_module

    def rewriting(chat, messages, ready, tools=()):  # the format's text differs between the rendering and its skeleton
        return "".join(f"<{len(message.content)}>{message.content[::-1]}" for message in messages)

    monkeypatch.setattr(prompt_module, "render_prompt", rewriting)
    prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
    assert not prompt.placed
    assert [(segment.text, segment.message) for segment in prompt.segments] == [("<3>!iH", None)]
    assert prompt.message_counts == (0,) and prompt.format_count == len(prompt.ids)


def test_gemma3s_own_rule_is_a_value_error_in_its_words_where_transformers_raises():
    messages = [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]
    with pytest.raises(Exception, match="Conversation roles must alternate"):
        reference("gemma3", messages, True)
    with pytest.raises(
        ValueError, match="^the chat template stopped: Conversation roles must alternate user/assistant"
    ):
        render_conversation("gemma3", messages)


# sha256 of each template as published (bpe_core/data/chat/README.md says where each comes from)
TEMPLATE_SHA256 = {
    "meta-llama-Llama-3.3-70B-Instruct.jinja": "e10ca381b1ccc5cf9db52e371f3b6651576caee0a630b452e2816b2d404d4b65",
    "Qwen-Qwen3-0.6B.jinja": "87a2728cb8dc9fe424d624542f6060ec05a1d285ebbec578bb078900e33396b5",
    "deepseek-ai-DeepSeek-V3.jinja": "3b8267e54b67df6500f231ffa969955cc9d26b3444a291ced4eb96ca7d3ca1ea",
    "google-gemma-3.jinja": "7de1c58e208eda46e9c7f86397df37ec49883aeece39fb961e0a6b24088dd3c4",
}


def test_every_shipped_template_is_the_published_one_byte_for_byte():
    import hashlib

    shipped = {path.name: hashlib.sha256(path.read_bytes()).hexdigest() for path in TEMPLATES.glob("*.jinja")}
    assert shipped == TEMPLATE_SHA256
    assert {chat.template_file for chat in CHAT_FORMATS.values() if chat.template_file} == set(TEMPLATE_SHA256)


def test_a_template_that_writes_more_than_its_skeleton_shows_is_not_cut_short(monkeypatch):
    from bpe_core.chat import prompt as prompt_module

    def hiding(chat, messages, ready, tools=()):  # writes a message's text unless it is a mark (private-use characters)
        content = messages[0].content
        return "<>" + ("" if content.startswith("\U000f0002") else content)

    monkeypatch.setattr(prompt_module, "render_prompt", hiding)
    prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi!"}])
    assert (prompt.prompt, prompt.placed) == ("<>Hi!", False)


def test_a_conversation_at_the_limits_is_read():
    from bpe_core.chat import MAX_MESSAGES, read_messages

    assert len(read_messages([{"role": "user", "content": "x"}] * MAX_MESSAGES)) == 64
    at_most = [{"role": "user", "content": "x" * 100_000}, {"role": "assistant", "content": "y" * 100_000}]
    assert [len(message.content) for message in read_messages(at_most)] == [100_000, 100_000]
