"""Tools in a conversation (OpenAI's ``tools`` list, an assistant's ``tool_calls``, a ``tool`` message's result)
rendered by each model's own format, against the reference libraries: transformers' ``apply_chat_template(messages,
tools=tools)`` on the shipped templates, openai-harmony with ``DeveloperContent.with_function_tools``,
mistral-common's ``encode_chat_completion`` with ``tools``, and the OpenAI cookbook's ``num_tokens_for_tools``."""

from __future__ import annotations

import json

import pytest
from support.chat_references import reference_tokenizer, transformers_form, transformers_ids

from bpe_core.chat import CHAT_FORMATS, render_conversation
from bpe_core.chat.formats import TEMPLATES

transformers = pytest.importorskip("transformers")


def function(name: str, description: str, parameters: dict | None = None) -> dict:
    definition = {"name": name, "description": description}
    return {"type": "function", "function": definition | ({"parameters": parameters} if parameters else {})}


def flat_function(name: str, description: str, required: list[str], **properties: dict) -> dict:
    """A function whose parameters are an object of ``properties`` (in their order), the ``required`` ones named."""
    return function(name, description, {"type": "object", "properties": properties, "required": required})


WEATHER = flat_function(
    "get_weather",
    "Gets the current weather.",
    ["city"],
    city={"type": "string", "description": "The city, e.g. Paris"},
    unit={"type": "string", "description": "Celsius or Fahrenheit.", "enum": ["celsius", "fahrenheit"]},
    days={"type": "integer", "description": "How many days", "default": 1},
)
SEARCH = flat_function(
    "search_docs",
    "Searches the documentation.\nReturns the best matches.",
    ["query"],
    query={"type": "string", "description": "Words to look for"},
    tags={"type": "array", "items": {"type": "string"}, "description": "Only pages with these tags"},
    exact={"type": "boolean", "description": "Match the words exactly"},
)
NESTED = function(
    "book_trip",
    "Réserve un voyage — 旅行を予約する 🧳",
    {
        "type": "object",
        "description": "The trip",
        "properties": {
            "traveller": {
                "type": "object",
                "title": "Traveller",
                "properties": {"name": {"type": "string"}, "age": {"type": ["integer", "null"]}},
                "required": ["name"],
            },
            "when": {
                "description": "A date or a range",
                "oneOf": [
                    {"type": "string", "description": "A date"},
                    {"type": "object", "properties": {"from": {"type": "string"}, "to": {"type": "string"}}},
                ],
            },
            "class": {"type": "string", "enum": ["economy", "business"], "default": "economy"},
            "seats": {"type": "array", "items": {"type": "integer"}, "nullable": True, "examples": ["12A"]},
            "note": {"type": "string", "default": "none", "description": 'Said "as is"'},
        },
        "required": ["traveller", "when"],
    },
)
TOOLS_LISTS = {"one tool": [WEATHER], "two tools": [WEATHER, SEARCH], "nested schema": [NESTED, SEARCH]}


def call(call_id: str, name: str, arguments: dict) -> dict:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


ASKING = [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "What's the weather in Paris?"}]
ONE_CALL = [
    *ASKING,
    {"role": "assistant", "content": None, "tool_calls": [call("call00001", "get_weather", {"city": "Paris"})]},
    {"role": "tool", "tool_call_id": "call00001", "content": '{"temperature": 21, "sky": "clear"}'},
]
TWO_CALLS = [
    {"role": "user", "content": "Weather in Paris and Tokyo, in Celsius?"},
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            call("call00001", "get_weather", {"city": "Paris", "unit": "celsius"}),
            call("call00002", "get_weather", {"city": "東京", "unit": "celsius"}),
        ],
    },
    {"role": "tool", "tool_call_id": "call00001", "content": "21"},
    {"role": "tool", "tool_call_id": "call00002", "content": "It is 18 °C and raining."},
    {"role": "assistant", "content": "Paris: 21 °C; Tokyo: 18 °C and rain."},
    {"role": "user", "content": "Thanks!"},
]
CONVERSATIONS = {"asking": ASKING, "one call and its result": ONE_CALL, "two calls and their results": TWO_CALLS}
TEMPLATE_MODELS = [name for name, chat in CHAT_FORMATS.items() if chat.template_file and chat.tool_messages]


def test_apply_chat_template_drops_deepseek_v3s_none_content_so_its_template_fails_on_a_call():
    tokenizer = reference_tokenizer("deepseek-v3")
    template = (TEMPLATES / CHAT_FORMATS["deepseek-v3"].template_file).read_text(encoding="utf-8")
    with pytest.raises(Exception, match="has no attribute 'content'"):
        tokenizer.apply_chat_template(transformers_form("deepseek-v3", ONE_CALL), chat_template=template)
    # rendered as the template means it: the call in DeepSeek's tool-call tokens
    prompt = render_conversation("deepseek-v3", ONE_CALL)
    assert "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather" in prompt.prompt


@pytest.mark.parametrize("tools", TOOLS_LISTS)
@pytest.mark.parametrize("conversation", CONVERSATIONS)
@pytest.mark.parametrize("name", TEMPLATE_MODELS)
def test_template_models_with_tools_equal_transformers(name, conversation, tools):
    messages, listed = CONVERSATIONS[conversation], TOOLS_LISTS[tools]
    if name == "llama3" and conversation == "two calls and their results":
        with pytest.raises(Exception, match="only supports single tool-calls"):
            transformers_ids(name, messages, listed)
        with pytest.raises(ValueError, match="only supports single tool-calls"):
            render_conversation(name, messages, tools=listed)
        return
    rendered, ids = transformers_ids(name, messages, listed)
    prompt = render_conversation(name, messages, tools=listed)
    assert prompt.prompt == rendered
    assert prompt.ids == ids
    assert prompt.placed
    assert prompt.total == len(ids) == sum(prompt.message_counts) + prompt.tools_count + prompt.format_count


@pytest.mark.parametrize("name", ["llama3", "qwen3"])
def test_each_tools_definition_is_its_own_segment_and_counted_apart(name):
    prompt = render_conversation(name, ONE_CALL, tools=[WEATHER, SEARCH])
    indent = 4 if name == "llama3" else None  # Llama 3's template writes tojson(indent=4), Qwen3's plain tojson
    written = [json.dumps(tool, ensure_ascii=False, indent=indent) for tool in (WEATHER, SEARCH)]
    assert [segment.text for segment in prompt.segments if segment.kind == "tools"] == written
    assert len(prompt.tool_counts) == 2 and all(prompt.tool_counts)
    # the call's name and arguments are the assistant's message's text (message 2), the result the tool's (3)
    assistant = [segment.text for segment in prompt.segments if segment.message == 2]
    assert assistant[0] == "get_weather" and json.loads(assistant[1]) == {"city": "Paris"}
    assert [segment.text for segment in prompt.segments if segment.message == 3][0].startswith("{")
    without = render_conversation(name, ONE_CALL)
    assert prompt.tools_count > 0 and without.tools_count == 0


def test_deepseek_v3_ignores_the_tools_list_and_says_so():
    with_tools = render_conversation("deepseek-v3", ONE_CALL, tools=[WEATHER])
    assert with_tools.ids == render_conversation("deepseek-v3", ONE_CALL).ids
    assert with_tools.tools_count == 0 and "ignores the tools list" in with_tools.tools_note
    assert render_conversation("deepseek-v3", ONE_CALL).tools_note == ""


def test_gemma3_has_no_tools_and_says_so():
    prompt = render_conversation("gemma3", ASKING, tools=[WEATHER])
    assert prompt.ids == render_conversation("gemma3", ASKING).ids
    assert prompt.tools_note == "Gemma 3's template has no tools: the tools list is not sent"
    with pytest.raises(ValueError, match="Gemma 3 \\(instruct\\)'s chat format has no tools"):
        render_conversation("gemma3", ONE_CALL)


def harmony_tool_ids(reference, messages: list[dict], tools: list[dict]) -> list[int]:
    """openai-harmony's prompt: its default system message; our first system message the developer's instructions
    with the tools (``with_function_tools``), or a developer message of the tools alone first; a call an assistant's
    message to ``functions.NAME`` on the commentary channel (``<|constrain|>json``), its text commentary before it;
    a result a message from ``functions.NAME`` to the assistant."""
    library, encoding = reference
    Message, Role = library.Message, library.Role
    descriptions = [
        library.ToolDescription.new(
            tool["function"]["name"], tool["function"]["description"], parameters=tool["function"].get("parameters")
        )
        for tool in tools
    ]
    converted = [Message.from_role_and_content(Role.SYSTEM, library.SystemContent.new())]
    if tools and not any(message["role"] == "system" for message in messages):
        developer = library.DeveloperContent.new().with_function_tools(descriptions)
        converted.append(Message.from_role_and_content(Role.DEVELOPER, developer))
    names, first_system = {}, True
    for message in messages:
        converted += harmony_message(library, message, descriptions if first_system else [], names)
        first_system = first_system and message["role"] != "system"
    conversation = library.Conversation.from_messages(converted)
    return list(encoding.render_conversation_for_completion(conversation, Role.ASSISTANT))


def harmony_message(library, message: dict, descriptions: list, names: dict) -> list:
    Message, Role = library.Message, library.Role
    if message["role"] == "system":
        developer = library.DeveloperContent.new().with_instructions(message["content"])
        developer = developer.with_function_tools(descriptions) if descriptions else developer
        return [Message.from_role_and_content(Role.DEVELOPER, developer)]
    if message["role"] == "user":
        return [Message.from_role_and_content(Role.USER, message["content"])]
    if message["role"] == "tool":
        author = library.Author.new(Role.TOOL, f"functions.{names[message['tool_call_id']]}")
        result = Message.from_author_and_content(author, message["content"]).with_channel("commentary")
        return [result.with_recipient("assistant")]
    if not message.get("tool_calls"):
        return [Message.from_role_and_content(Role.ASSISTANT, message["content"]).with_channel("final")]
    converted = []
    if message["content"]:
        converted.append(Message.from_role_and_content(Role.ASSISTANT, message["content"]).with_channel("commentary"))
    for item in message["tool_calls"]:
        names[item["id"]] = item["function"]["name"]
        sent = Message.from_role_and_content(Role.ASSISTANT, item["function"]["arguments"]).with_channel("commentary")
        converted.append(
            sent.with_recipient(f"functions.{item['function']['name']}").with_content_type("<|constrain|>json")
        )
    return converted


HARMONY_CONVERSATIONS = {
    **CONVERSATIONS,
    "no system message": ONE_CALL[1:],
    "a preamble before the call": [ASKING[1], {**ONE_CALL[2], "content": "Let me look that up."}, ONE_CALL[3]],
}


@pytest.mark.parametrize("tools", TOOLS_LISTS)
@pytest.mark.parametrize("conversation", HARMONY_CONVERSATIONS)
def test_gpt_oss_with_tools_equals_openai_harmony(harmony, conversation, tools):
    messages, listed = HARMONY_CONVERSATIONS[conversation], TOOLS_LISTS[tools]
    prompt = render_conversation("o200k_harmony", messages, tools=listed)
    assert prompt.ids == harmony_tool_ids(harmony, messages, listed)
    assert len(prompt.tool_counts) == len(listed) and all(prompt.tool_counts)
    assert prompt.total == len(prompt.ids)


SCHEMAS = {
    "no parameters": None,
    "empty object": {"type": "object"},
    "not an object": {"type": "string"},
    "type list": {"type": "object", "properties": {"x": {"type": ["integer", "string", "null"]}}},
    "oneOf at the top": {"oneOf": [{"type": "string", "description": "d", "default": "a"}, {"type": "integer"}]},
    "oneOf enum default": {
        "type": "object",
        "properties": {
            "p": {
                "description": "same",
                "default": "b",
                "enum": ["a", "b"],
                "oneOf": [{"type": "string", "description": "same"}, {"type": "number", "nullable": True}],
            }
        },
    },
    "array without items": {"type": "object", "properties": {"a": {"type": "array"}, "n": {"type": "null"}}},
    "defaults": {
        "type": "object",
        "properties": {
            "f": {"type": "number", "default": 1.5},
            "o": {"type": "object", "default": {"k": [1, "é"]}},
            "e": {"type": "string", "enum": ["x", "y"], "default": "x"},
        },
    },
    "oneOf not a list": {"type": "object", "properties": {"z": {"type": "string", "oneOf": {"a": 1}, "default": 2}}},
    "multi-line description": {"type": "object", "description": "line one\nline two", "properties": {}},
}


@pytest.mark.parametrize("schema", SCHEMAS)
def test_harmony_writes_each_schema_as_openai_harmony_does(harmony, schema):
    listed = [function("probe", "Line one.\r\nLine two.\n", SCHEMAS[schema])]
    prompt = render_conversation("o200k_harmony", [{"role": "user", "content": "Hi"}], tools=listed)
    assert prompt.ids == harmony_tool_ids(harmony, [{"role": "user", "content": "Hi"}], listed)


@pytest.fixture(scope="module")
def mistral_tools():
    library = pytest.importorskip("mistral_common")
    from importlib import resources

    from mistral_common.protocol.instruct import messages as kinds
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.tool_calls import Function, FunctionCall, Tool, ToolCall
    from mistral_common.tokens.tokenizers.mistral import MistralTokenizer

    tokenizer = MistralTokenizer.from_file(str(resources.files(library) / "data" / "tekken_240911.json"))

    def converted(message: dict):
        if message["role"] == "tool":
            return kinds.ToolMessage(content=message["content"], tool_call_id=message["tool_call_id"])
        if message.get("tool_calls"):
            calls = [
                ToolCall(id=item["id"], function=FunctionCall(**item["function"])) for item in message["tool_calls"]
            ]
            return kinds.AssistantMessage(content=message["content"], tool_calls=calls)
        by_role = {"system": kinds.SystemMessage, "user": kinds.UserMessage, "assistant": kinds.AssistantMessage}
        return by_role[message["role"]](content=message["content"])

    def encode(messages: list[dict], tools: list[dict]):
        offered = [Tool(function=Function(**tool["function"])) for tool in tools] or None
        request = ChatCompletionRequest(messages=[converted(message) for message in messages], tools=offered)
        return tokenizer.encode_chat_completion(request)

    return encode


MISTRAL_CONVERSATIONS = {
    **CONVERSATIONS,
    "ending with a result": ONE_CALL,
    "a result that is not JSON, then trailing spaces": [
        *ONE_CALL[:3],
        {"role": "tool", "tool_call_id": "call00001", "content": "sunny, 21 °C"},
        {"role": "assistant", "content": "Sunny.   "},
        {"role": "user", "content": ""},
        {"role": "user", "content": "More?"},
    ],
}


@pytest.mark.parametrize("tools", TOOLS_LISTS)
@pytest.mark.parametrize("conversation", MISTRAL_CONVERSATIONS)
def test_mistral_with_tools_equals_mistral_common(mistral_tools, conversation, tools):
    messages, listed = MISTRAL_CONVERSATIONS[conversation], TOOLS_LISTS[tools]
    reference = mistral_tools(messages, listed)
    prompt = render_conversation("mistral-tekken-v3", messages, tools=listed)
    assert prompt.ids == reference.tokens
    assert prompt.prompt == reference.text
    written = [json.dumps(tool, ensure_ascii=False) for tool in listed]
    assert [segment.text for segment in prompt.segments if segment.kind == "tools"] == written


@pytest.mark.parametrize(
    ("messages", "theirs", "ours"),
    [
        (ONE_CALL[:3], "Expected last role User or Tool", "must end with a user's message or a tool's result"),
        (
            [
                *ONE_CALL[:2],
                {**ONE_CALL[2], "tool_calls": [call("call_1", "get_weather", {})]},
                {**ONE_CALL[3], "tool_call_id": "call_1"},
            ],
            "must be a-z, A-Z, 0-9, with a length of 9",
            "tool call ids of 9 letters and digits",
        ),
        (
            [*ONE_CALL[:2], {**ONE_CALL[2], "content": "Looking."}, ONE_CALL[3]],
            "either content or tool_calls, but not both",
            "either a text or tool calls",
        ),
        (
            [*ONE_CALL[:3], ASKING[1], ONE_CALL[3]],
            "Unexpected role 'tool' after role 'user'",
            "no tool message right after the user's",
        ),
        (
            [*ONE_CALL[:3], {"role": "assistant", "content": "Hm."}, ASKING[1]],
            "Not the same number of function calls and responses",
            "as many tool results as tool calls",
        ),
    ],
)
def test_mistral_refuses_with_tools_what_mistral_common_refuses(mistral_tools, messages, theirs, ours):
    with pytest.raises(Exception, match=theirs):
        mistral_tools(messages, [WEATHER])
    with pytest.raises(ValueError, match=ours):
        render_conversation("mistral-tekken-v3", messages, tools=[WEATHER])


def cookbook_tools_count(tiktoken_module, model: str, functions: list[dict], messages: list[dict]) -> int:
    """The OpenAI cookbook's num_tokens_for_tools (How to count tokens with tiktoken), for gpt-4 and gpt-4o, with
    its num_tokens_from_messages for messages of a role and a text."""
    settings = {"gpt-4o": (7, 3, 3, -3, 3, 12), "gpt-4": (10, 3, 3, -3, 3, 12)}[model]
    func_init, prop_init, prop_key, enum_init, enum_item, func_end = settings
    encoding = tiktoken_module.get_encoding({"gpt-4o": "o200k_base", "gpt-4": "cl100k_base"}[model])
    count = 0
    for f in functions:
        count += func_init
        function = f["function"]
        description = function["description"].removesuffix(".")
        count += len(encoding.encode(function["name"] + ":" + description))
        properties = function["parameters"]["properties"]
        if len(properties) > 0:
            count += prop_init
            for key, value in properties.items():
                count += prop_key
                if "enum" in value:
                    count += enum_init
                    for item in value["enum"]:
                        count += enum_item + len(encoding.encode(item))
                line = f"{key}:{value['type']}:{value['description'].removesuffix('.')}"
                count += len(encoding.encode(line))
    count += func_end if functions else 0
    messages_count = sum(3 + sum(len(encoding.encode(value)) for value in message.values()) for message in messages)
    return count + messages_count + 3


ESTIMATED_TOOLS = {
    "one tool": [WEATHER],
    "two tools": [WEATHER, SEARCH],
    "no properties": [function("ping", "Pings.", {"type": "object", "properties": {}})],
}


@pytest.mark.parametrize("tools", ESTIMATED_TOOLS)
@pytest.mark.parametrize(("name", "model"), [("cl100k_base", "gpt-4"), ("o200k_base", "gpt-4o")])
def test_gpt4_and_gpt4o_tools_are_the_cookbooks_estimate(tiktoken_module, name, model, tools):
    listed = ESTIMATED_TOOLS[tools]
    prompt = render_conversation(name, ASKING, tools=listed)
    assert prompt.total == cookbook_tools_count(tiktoken_module, model, listed, ASKING)
    assert prompt.tools_count == prompt.total - render_conversation(name, ASKING).total > 0


def test_an_estimated_formats_tool_calls_count_as_the_messages_text(tiktoken_module):
    prompt = render_conversation("o200k_base", ONE_CALL, tools=[WEATHER])
    encoder = tiktoken_module.get_encoding("o200k_base")
    call_tokens = len(encoder.encode("get_weather")) + len(encoder.encode('{"city": "Paris"}'))
    assert prompt.message_counts[2] == call_tokens
    assert prompt.message_counts[3] == len(encoder.encode(ONE_CALL[3]["content"]))


def nested(depth: int) -> dict:
    value: dict = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize(
    ("tools", "words"),
    [
        ([WEATHER] * 65, "the tools list holds 65 functions; at most 64"),
        ([function("f", "x" * 50_000), function("g", "y" * 50_000)], "at most 100,000 are read"),
        ([WEATHER, '{"type": "function", "function": {"name": "g"'], "tool 2 is not valid JSON"),
        ([WEATHER, {"type": "function", "function": {"description": "nameless"}}], "tool 2 has no name"),
        (
            [{"type": "function", "function": {"name": "deep", "parameters": nested(127)}}],
            "tool 1 \\('deep'\\) is nested",
        ),
        ([{"type": "retrieval", "function": {"name": "r"}}], "tool 1 \\('r'\\) has the type 'retrieval'"),
        (
            [function("f", "d") | {"function": {"name": "f", "parameters": [1]}}],
            "tool 1 \\('f'\\)'s parameters are not",
        ),
        ("[{", "the tools is not valid JSON"),
        ({"name": "f"}, "the tools are a list"),
    ],
)
def test_bad_tools_are_refused_naming_the_tool(tools, words):
    with pytest.raises(ValueError, match=words):
        render_conversation("qwen3", ASKING, tools=tools)


def test_tools_at_the_limits_are_read():
    deep = {"type": "function", "function": {"name": "deep", "parameters": nested(125)}}  # 127 levels with the tool's
    prompt = render_conversation("qwen3", ASKING, tools=[deep, *[WEATHER] * 63])
    assert len(prompt.tool_counts) == 64 and prompt.placed


@pytest.mark.parametrize(
    ("messages", "words"),
    [
        ([{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}], "tool call 1 has no name"),
        (
            [{"role": "assistant", "tool_calls": [call("c", "f", {}) | {"function": {"name": "f", "arguments": "{"}}]}],
            "tool call 1 \\('f'\\)'s arguments is not valid JSON",
        ),
        ([{"role": "assistant", "tool_calls": [{"function": {"name": "f", "arguments": "[1]"}}]}], "not a JSON object"),
        ([{"role": "user", "content": "x", "tool_calls": [call("c", "f", {})]}], "only an assistant's message"),
        ([{"role": "user", "content": "x", "tool_call_id": "c"}], "only a tool's result"),
        ([ASKING[1], {"role": "tool", "tool_call_id": "c", "content": "x"}], "answers no assistant's tool call"),
    ],
)
def test_bad_tool_calls_are_refused_in_words(messages, words):
    with pytest.raises(ValueError, match=words):
        render_conversation("qwen3", messages)


def test_a_hostile_schema_stays_within_the_templates_bounds():
    # one property nested 60 objects deep holding thousands of short ones: small as JSON, huge once indented
    wide = {"type": "object", "properties": {f"p{n}": {} for n in range(7_000)}}
    for _ in range(60):
        wide = {"type": "object", "properties": {"a": wide}}
    hostile = {"type": "function", "function": {"name": "h", "parameters": wide}}
    with pytest.raises(ValueError, match="more than 1,000,000 characters"):
        render_conversation("llama3", ASKING, tools=[hostile])  # tojson(indent=4): the template's output bound
    with pytest.raises(ValueError, match="more than 1,000,000 characters"):
        render_conversation("o200k_harmony", ASKING, tools=[hostile])  # harmony's indented TypeScript
