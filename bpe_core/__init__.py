"""bpe_core: Byte Pair Encoding as it is taught, in the standard library only.

>>> from bpe_core import Config, train
>>> tok = train("banana banana", Config(split="none", space_marker=True), merges=10)
>>> [f"{s.left} {s.right}" for s in tok.steps]
['a n', 'b an', 'ban an', 'banan a', 'banana Ġ', 'bananaĠ banana']
>>> tok.stop_message
'stopped after 6 merges: no pair is left to merge (asked for 10 merges)'
"""

from .config import Config
from .gpt2 import load_gpt2
from .tokenizer import Token, Tokenizer, TreeNode, UnknownIdError
from .train import Step, count_pieces, train

__all__ = [
    "Config",
    "Step",
    "Token",
    "Tokenizer",
    "TreeNode",
    "UnknownIdError",
    "count_pieces",
    "load_gpt2",
    "train",
]
