"""HF tokenizers' whole process, the reference for ``python -m bpe_core train ... --lines``:
train byte-level BPE from a file (line by line, as HF reads files) and save ``tokenizer.json``.

    python -m bench.hf_train CORPUS VOCAB_SIZE OUTPUT
"""

import sys

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers


def main(corpus: str, vocab_size: str, output: str) -> None:
    tokenizer = Tokenizer(models.BPE())
    tokenizer.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    tokenizer.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=int(vocab_size),
        show_progress=False,
        special_tokens=[],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    tokenizer.train([corpus], trainer=trainer)
    tokenizer.save(output)


if __name__ == "__main__":
    main(*sys.argv[1:])
