"""A tokenizer made of HF tokenizers' swappable parts, as a ``tokenizer.json`` names them.

Added tokens are cut out first, the rest is normalized, pre-tokenized into pieces, and
each piece goes through the BPE model; ids decode through a chain of decoders.

>>> from bpe_core.pipeline.added_tokens import AddedToken, AddedTokens
>>> AddedTokens([AddedToken("<s>", 1)]).split("<s>hi", normalized=False)
[('<s>', 1), ('hi', None)]
"""
