"""bpe_core: Byte Pair Encoding as it is taught, in the standard library only.

The modules, in the order the algorithm meets them: ``pretokenize`` (cut text into
pieces), ``units`` (characters or bytes as base symbols), ``corpus`` (pieces counted,
base vocabulary), ``textbook`` (plain BPE, the first read), ``train`` (the same, fast),
``trace`` (each step as data), ``tokenizer`` (encode and decode, with ``spans``,
``explain`` and ``streaming``), ``formats`` (files in and out), ``pretrained`` (GPT-2,
GPT-4, GPT-4o), ``blocks`` and ``dask_count`` (big corpora counted in parallel) and
``cli`` (the command line).

>>> from bpe_core import Config, train
>>> tok = train("banana banana", Config(split="none", space_marker=True), merges=10)
>>> [f"{s.left} {s.right}" for s in tok.steps]
['a n', 'b an', 'ban an', 'banan a', 'banana Ġ', 'bananaĠ banana']
>>> tok.stop_message
'stopped after 6 merges: every piece of the text is one token, no pair is left to merge (asked for 10 merges)'
"""

from .config import Config
from .corpus import count_pieces
from .explain import TreeNode
from .formats import load_model, save_model
from .pretrained import load_gpt2
from .spans import Token
from .tokenizer import Tokenizer, UnknownIdError
from .trace import Step
from .train import train, train_from_counts

__all__ = [
    "Config",
    "Step",
    "Token",
    "Tokenizer",
    "TreeNode",
    "UnknownIdError",
    "count_pieces",
    "load_gpt2",
    "load_model",
    "save_model",
    "train",
    "train_from_counts",
]
