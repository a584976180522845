"""Encode's Conversation mode beyond the messages, as pure views: the tools (their tokens striped apart, their count,
what the page says of a format that ignores them, refusals in words, the address), the context window, and the
word on a text that ends in the middle of a merge (Text mode too)."""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from bpe_core import load_gpt2
from bpe_core.chat import render_conversation
from bpe_core.pretrained import load_pretrained
from bpe_core.prompt_end import PromptEnd, prompt_end
from pages.encode.views.chat_tools import SAMPLE_TOOLS, read_tools_text, tools_link_note, tools_note
from pages.encode.views.context_window import past_window_note, window_line
from pages.encode.views.conversation import counts, prompt_html
from pages.encode.views.prompt_end_view import cut_short, end_note, next_tokens_html
from session.choices import ToolsList

HI = [{"role": "user", "content": "Hi!"}]
# The OpenAI cookbook's num_tokens_for_tools for this function on gpt-4: 10 + "f:Does f" (4 tokens) + 12 = 26
F = {
    "type": "function",
    "function": {"name": "f", "description": "Does f.", "parameters": {"type": "object", "properties": {}}},
}


def test_a_tools_tokens_are_striped_apart_and_spell_its_json():
    html = prompt_html(render_conversation("qwen3", HI, tools=[F]), load_pretrained("qwen3"))
    boxes = html.split('<span class="tok ')[1:]
    classes = [box.split('"')[0] for box in boxes]
    tool_boxes = [box for box, names in zip(boxes, classes) if " tool" in names]
    assert tool_boxes and not any(" fmt" in names and " tool" in names for names in classes)
    # Qwen3's template writes each tool as {{ tool | tojson }} then a newline, which the last token "}}}}\n" takes
    # along (a token belongs where it starts): the striped boxes spell the definition, spaces as ␣, newlines as ↵
    spelled = "".join(re.sub("<[^>]+>", "", box.split(">", 1)[1].split("</span>")[0]) for box in tool_boxes)
    assert spelled.replace("␣", " ").replace("↵", "\n").replace("&quot;", '"') == json.dumps(F) + "\n"


def test_the_counts_keep_the_tools_apart_and_say_gpt4s_are_an_estimate():
    assert [label for label, _ in counts(render_conversation("qwen3", HI, tools=[F]))] == [
        "Tokens in all",
        "In messages",
        "By the tools",
        "By the format",
    ]
    # GPT-4: Hi! 2 tokens, the tool 26 (the cookbook's rule), the format 3 + 1 (user) + 3 for the reply
    assert counts(render_conversation("cl100k_base", HI, tools=[F])) == [
        ("Tokens in all", "35"),
        ("In messages", "2"),
        ("By the tools (OpenAI's estimate)", "26"),
        ("By the format (OpenAI's estimate)", "7"),
    ]
    assert len(counts(render_conversation("qwen3", HI))) == 3  # no tools, no tools' count


def test_the_tools_note_where_the_format_ignores_them_or_estimates_them():
    assert tools_note(render_conversation("gemma3", HI, tools=[F])) == (
        "Gemma 3's template has no tools: the tools list is not sent."
    )
    assert tools_note(render_conversation("deepseek-v3", HI, tools=[F])).startswith(
        "DeepSeek-V3's template ignores the tools list"
    )
    assert "num_tokens_for_tools" in tools_note(render_conversation("o200k_base", HI, tools=[F]))
    assert tools_note(render_conversation("qwen3", HI, tools=[F])) == ""
    assert tools_note(render_conversation("gemma3", HI)) == ""


@pytest.mark.parametrize(
    "text, refusal",
    [
        ('[{"type": "function", "function": {"name": "f"}', "the tools is not valid JSON (Expecting ',' delimiter"),
        ('[{"type": "function", "function": {"name": "f"}}, {"function": {}}]', "tool 2 has no name"),
        ('{"name": "f"}', "the tools are a list of"),
    ],
)
def test_bad_tools_are_refused_in_words(text, refusal):
    tools, said = read_tools_text(text)
    assert tools == () and said.startswith("These tools are refused: ") and refusal in said
    assert said.endswith("The conversation is shown without them.")


def test_the_sample_and_a_blank_editor():
    tools, said = read_tools_text(json.dumps(SAMPLE_TOOLS, indent=2))
    assert [tool.name for tool in tools] == ["get_weather", "search_web"] and said == ""
    assert read_tools_text("  \n") == ((), "")


def test_the_address_keeps_a_short_tools_list_compact_and_leaves_a_long_one_out():
    kind = ToolsList(2_000)
    assert kind.write(json.dumps([F], indent=2)) == json.dumps([F], separators=(",", ":"))
    assert kind.write("") is None and kind.write("[{") is None
    long_list = [{"type": "function", "function": {"name": "f", "description": "x" * 2_000}}]
    assert kind.write(json.dumps(long_list)) is None
    assert tools_link_note(json.dumps(long_list), 2_000).startswith("The tools (2,062 characters as a link)")
    warnings: list[str] = []
    assert json.loads(kind.read({"tools": json.dumps([F])}, "tools", warnings)) == [F] and warnings == []
    assert kind.read({"tools": "[1]"}, "tools", warnings) is None and "tool 1 is not" in warnings[0]


def test_the_window_line_and_a_prompt_past_the_window():
    prompt = render_conversation("qwen3", HI)  # 10 tokens by hand (ChatML), Qwen3's window 32,768
    assert window_line(prompt) == "10 of 32,768 tokens (0.03%), 32,758 left for the reply"
    assert past_window_note(prompt) == ""
    small = replace(prompt, chat=replace(prompt.chat, context_window=8))
    assert window_line(small) == "10 tokens: 2 past the 8-token window"
    assert past_window_note(small).startswith("The prompt takes 10 tokens, 2 more than Qwen3 0.6B reads (8)")


@pytest.mark.parametrize(
    "text, said",
    [
        ("The answer is ", True),  # a trailing space: ' t', ' a', ' the' are GPT-2's first merges
        ("Hello wor", True),  # half a word: ' world', ' work'
        ("See http:", True),  # '://'
        ("Hello world.", False),  # '..' and '."' exist, yet a full stop is no slip
        ("", False),
    ],
)
def test_which_endings_are_worth_a_word(text, said):
    assert cut_short(prompt_end(load_gpt2(), text), text) is said


def test_the_note_and_the_chips_for_a_trailing_space():
    end = prompt_end(load_gpt2(), "Hello ", limit=3)  # (256, ' t'), (257, ' a'), (262, ' the')
    note = end_note(end, "Hello ")
    assert note.startswith('This text ends in the middle of what the tokenizer would merge: its last token, "␣"')
    assert "token healing" in note
    assert end_note(end, "Hello ", message=True).startswith("The last message ends in the middle")
    chips = next_tokens_html(end)
    assert re.findall(r'<span class="chip" title="token id (\d+)">([^<]*)</span>', chips) == [
        ("256", "␣t"),
        ("257", "␣a"),
        ("262", "␣the"),
    ]


def test_the_chips_are_escaped():
    chips = next_tokens_html(PromptEnd(None, ((1, '<img src=x onerror="x">'),), 1))
    assert "<img" not in chips and "&lt;img" in chips
