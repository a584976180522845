"""Encode's Conversation mode as pure views: the prompt's boxes (the format's tokens striped), its counts and notes,
escaped."""

from __future__ import annotations

from bpe_core.chat import CHAT_FORMATS, render_conversation
from bpe_core.pretrained import PUBLISHED, load_pretrained
from pages.encode.views import conversation

HI = [{"role": "user", "content": "Hi!"}]


def test_only_the_formats_tokens_are_striped():
    # Qwen3's ChatML by hand: <|im_start|> user \n | Hi ! | <|im_end|> \n <|im_start|> assistant \n
    html = conversation.prompt_html(render_conversation("qwen3", HI), load_pretrained("qwen3"))
    boxes = html.split('<span class="tok ')[1:]
    striped = [" fmt" in box.split('"')[0] for box in boxes]
    assert striped == [True, True, True, False, False, True, True, True, True, True]


def test_gpt4_draws_one_row_per_message_and_no_format_token():
    messages = [{"role": "system", "content": "Be brief."}, *HI]
    html = conversation.prompt_html(render_conversation("cl100k_base", messages), load_pretrained("cl100k_base"))
    rows = html.split('<div class="line">')[1:]
    assert [row.count('class="tok ') for row in rows] == [3, 2]  # Be| brief|. and Hi|! (tiktoken's cl100k_base)
    assert " fmt" not in html


def test_a_messages_text_is_escaped():
    attack = [{"role": "user", "content": '<img src=x onerror=alert(1)> "quoted" & <script>'}]
    html = conversation.prompt_html(render_conversation("llama3", attack), load_pretrained("llama3"))
    assert "<img" not in html and "<script>" not in html
    assert "&lt;img" in html


def test_the_counts_in_all_the_messages_and_the_format_and_which_is_an_estimate():
    assert conversation.counts(render_conversation("qwen3", HI)) == [
        ("Tokens in all", "10"),
        ("In messages", "2"),
        ("By the format", "8"),
    ]
    # GPT-4 by OpenAI's cookbook: 3 + 1 (user) + 2 (Hi!) + 3 for the reply = 9
    assert conversation.counts(render_conversation("cl100k_base", HI)) == [
        ("Tokens in all", "9"),
        ("In messages", "2"),
        ("By the format (OpenAI's estimate)", "7"),
    ]


def test_one_message_count_in_words():
    prompt = render_conversation("qwen3", [{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hi!"}])
    assert [conversation.message_count(prompt, index) for index in range(2)] == ["1 token", "2 tokens"]


def test_the_format_note_names_its_source_and_the_reply_only_when_ready():
    llama = CHAT_FORMATS["llama3"]
    assert "meta-llama/Llama-3.3-70B-Instruct" in conversation.format_note(llama, True)
    assert "opening of the assistant's reply" in conversation.format_note(llama, True)
    assert "reply" not in conversation.format_note(llama, False)
    gpt4 = conversation.format_note(CHAT_FORMATS["cl100k_base"], True)
    assert "OpenAI does not publish GPT-4's chat format" in gpt4 and "3 for the opening of the reply" in gpt4
    assert conversation.format_note(CHAT_FORMATS["gemma3"], True).endswith("roles must alternate.")
    harmony = conversation.format_note(CHAT_FORMATS["o200k_harmony"], True)
    assert harmony.startswith("The prompt gpt-oss receives: the messages in openai/gpt-oss's harmony format, as the")
    assert "transformers" not in harmony


def test_special_token_text_typed_in_a_message_is_said():
    typed = render_conversation("qwen3", [{"role": "user", "content": "stop <|im_end|> here"}])
    assert conversation.special_typed_note(typed).startswith("A message holds the text of a special token (<|im_end|>)")
    assert conversation.special_typed_note(render_conversation("qwen3", HI)) == ""
    assert conversation.placing_note(render_conversation("qwen3", HI)) == ""


def test_a_conversation_longer_than_a_link_is_said():
    assert conversation.link_note(HI, 2_000) == ""
    assert conversation.link_note([{"role": "user", "content": "x" * 2_000}], 2_000).startswith(
        "The conversation (2,013 characters as a link) is longer than a link carries (2,000)"
    )


def test_a_prompt_whose_messages_were_not_found_says_so(monkeypatch):
    from bpe_core.chat import prompt as prompt_module

    monkeypatch.setattr(prompt_module, "render_prompt", lambda chat, messages, ready: messages[0].content[::-1])
    assert conversation.placing_note(render_conversation("qwen3", HI)).startswith("The template rewrote the messages")


def test_the_legend_names_the_stripes_only_for_a_chat_format():
    from drawing.token_legend import render_legend

    prompt = render_conversation("qwen3", HI)
    striped = "striped: written by the chat format, not by a message"
    assert striped in render_legend(prompt.tokens, prompt.shown, chat_format=True)
    assert striped not in render_legend(prompt.tokens, prompt.shown)


def test_each_chat_model_is_named_once_and_whole():
    """The issue's "gpt-oss (gpt-oss (o200k_harmony))": one title where one holds the other, no parentheses inside
    parentheses, and the tokenizer's name kept where it adds one."""
    labels = {
        name: conversation.chat_model_label(chat.title, PUBLISHED[name].title) for name, chat in CHAT_FORMATS.items()
    }
    assert labels["o200k_harmony"] == "gpt-oss (o200k_harmony)"
    assert labels["cl100k_base"] == "GPT-4 (cl100k_base)"
    assert labels["deepseek-v3"] == "DeepSeek-V3"
    assert labels["llama3"] == "Llama 3.3 70B Instruct (Llama 3)"
    for label in labels.values():
        head, _, inside = label.partition(" (")
        assert label.count("(") <= 1 and head not in inside, label
    assert len(set(labels.values())) == len(labels)  # each chat model told apart
