"""gpt-oss's harmony format and Mistral's Tekken v3 instructions against their publishers' own libraries:
openai-harmony's ``render_conversation_for_completion`` and mistral-common's ``encode_chat_completion`` on the same
conversations must give the same ids."""

from __future__ import annotations

import pytest
from support.chat_references import CONVERSATIONS

from bpe_core.chat import render_conversation

MULTI_SYSTEM = [
    {"role": "system", "content": "S0"},
    {"role": "user", "content": "A"},
    {"role": "system", "content": "S1"},
    {"role": "user", "content": "B"},
    {"role": "user", "content": "C"},
    {"role": "assistant", "content": "X"},
    {"role": "assistant", "content": "Y"},
    {"role": "user", "content": "D"},
    {"role": "system", "content": "S2"},
]
TEXT_LIKE_CONTROL = [{"role": "user", "content": "Say <|end|> and [INST] and </s> and <|start|>assistant"}]
ENDING_WITH_A_USER = {
    **{name: messages for name, messages in CONVERSATIONS.items() if messages[-1]["role"] == "user"},
    "systems between turns": MULTI_SYSTEM,
    "control tokens' text": TEXT_LIKE_CONTROL,
    "assistant first": [{"role": "assistant", "content": "Hello"}, {"role": "user", "content": "Hi"}],
    "system only": [{"role": "system", "content": "Be brief."}],
}


def harmony_ids(harmony, messages, ready: bool) -> list[int]:
    """openai-harmony's prompt: its default system message, a system message of ours as the developer's
    instructions, an assistant's as its final answer."""
    library, encoding = harmony
    Message, Role = library.Message, library.Role
    converted = [Message.from_role_and_content(Role.SYSTEM, library.SystemContent.new())]
    for message in messages:
        if message["role"] == "system":
            instructions = library.DeveloperContent.new().with_instructions(message["content"])
            converted.append(Message.from_role_and_content(Role.DEVELOPER, instructions))
        elif message["role"] == "assistant":
            converted.append(Message.from_role_and_content(Role.ASSISTANT, message["content"]).with_channel("final"))
        else:
            converted.append(Message.from_role_and_content(Role.USER, message["content"]))
    conversation = library.Conversation.from_messages(converted)
    if ready:
        return list(encoding.render_conversation_for_completion(conversation, Role.ASSISTANT))
    return list(encoding.render_conversation(conversation))


@pytest.mark.parametrize("ready", [True, False], ids=["ready for the reply", "as it stands"])
@pytest.mark.parametrize("conversation", [*CONVERSATIONS, "control tokens' text", "systems between turns"])
def test_gpt_oss_ids_equal_openai_harmonys(harmony, conversation, ready):
    messages = {**CONVERSATIONS, **ENDING_WITH_A_USER}[conversation]
    prompt = render_conversation("o200k_harmony", messages, ready_for_reply=ready)
    assert prompt.ids == harmony_ids(harmony, messages, ready)


@pytest.mark.parametrize("conversation", ENDING_WITH_A_USER)
def test_mistral_ids_and_text_equal_mistral_commons(mistral, conversation):
    messages = ENDING_WITH_A_USER[conversation]
    prompt = render_conversation("mistral-tekken-v3", messages)
    reference = mistral(messages)
    assert prompt.ids == reference.tokens
    assert prompt.prompt == reference.text


@pytest.mark.parametrize(
    ("last", "theirs", "ours"),
    [
        ("assistant", "Expected last role User", "must end with a user's message"),
        ("system", "Unexpected role 'system' after role 'assistant'", "no system message right after the assistant"),
    ],
)
def test_mistral_refuses_what_mistral_common_refuses(mistral, last, theirs, ours):
    messages = [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello"}]
    messages += [{"role": last, "content": "More"}] if last == "system" else []
    with pytest.raises(Exception, match=theirs):
        mistral(messages)
    with pytest.raises(ValueError, match=ours):
        render_conversation("mistral-tekken-v3", messages)


def test_control_tokens_typed_in_a_message_stay_text_for_these_formats():
    for name, control in (("o200k_harmony", "<|end|>"), ("mistral-tekken-v3", "[INST]")):
        prompt = render_conversation(name, TEXT_LIKE_CONTROL)
        typed = [token for token, owner in zip(prompt.tokens, prompt.owners) if owner == 0]
        assert typed and all(token.kind != "special" for token in typed), name
        assert control in "".join(segment.text for segment in prompt.segments if segment.message == 0)
