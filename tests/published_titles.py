"""The published tokenizers' titles, written out once: the labels every page's tokenizer choice is expected to show
(each is also the name the loaded tokenizer gives itself, which tests/views/test_encode_tools.py checks)."""

PUBLISHED_TITLES = {
    "gpt2": "GPT-2",
    "cl100k_base": "GPT-4 (cl100k_base)",
    "o200k_base": "GPT-4o (o200k_base)",
    "llama2": "Llama 2",
    "llama3": "Llama 3",
    "qwen3": "Qwen3",
    "deepseek-v3": "DeepSeek-V3",
    "gemma3": "Gemma 3",
    "claude-legacy": "Claude (legacy)",
}
