"""Chat-format examples built from corpus paragraphs, rendered as the engine renders
prompts (harmony for gpt-oss, ChatML for qwen3moe), with a mask over the answer."""
import random

import regex

SPECIALS = {
    "gpt-oss": ["<|startoftext|>", "<|endoftext|>", "<|return|>", "<|constrain|>",
                "<|channel|>", "<|start|>", "<|end|>", "<|message|>", "<|call|>"],
    "qwen3moe": ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<think>", "</think>"],
}

_SPECIAL_SPLIT = regex.compile("(" + "|".join(
    regex.escape(s) for s in sorted({t for v in SPECIALS.values() for t in v}, key=len,
                                    reverse=True)) + ")")
_SENTENCE = regex.compile(r"(?<=[.!?\"])\s+(?=[A-Z\"])")
_TOPIC = regex.compile(r"\b[A-Z][a-z]{3,}\b")


def encode(bpe, text):
    """Ids of text in which the architecture's special tokens are written literally."""
    ids = []
    for piece in _SPECIAL_SPLIT.split(text):
        if piece in bpe.specials:
            ids.append(bpe.special(piece))
        elif piece:
            ids.extend(bpe.encode(piece))
    return ids


def _harmony_system(rng):
    date = f"20{rng.randint(24, 27)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
    effort = rng.choice(["low", "medium", "medium", "high"])
    return ("<|start|>system<|message|>You are ChatGPT, a large language model trained by "
            f"OpenAI.\nKnowledge cutoff: 2024-06\nCurrent date: {date}\n\nReasoning: {effort}"
            "\n\n# Valid channels: analysis, commentary, final. Channel must be included for "
            "every message.<|end|>")


def _turn(paragraph, rng):
    """A (question, reasoning, answer) triple from one paragraph, or None."""
    sentences = _SENTENCE.split(paragraph)
    if len(sentences) < 2 or len(paragraph) > 900:
        return None
    topics = _TOPIC.findall(paragraph)
    kind = rng.random()
    if kind < 0.4 and topics:
        topic = rng.choice(topics)
        return (rng.choice([f"Tell me about {topic}.", f"What do you know about {topic}?",
                            f"Write about {topic}."]),
                f"The user asks about {topic}. I will write a short paragraph.",
                " ".join(sentences[:3]))
    if kind < 0.7:
        return (rng.choice(["Continue this text: ", "Go on: ", "What comes next? "]) + sentences[0],
                "The user wants the text continued.", " ".join(sentences[1:3]))
    return (rng.choice(["Write a sentence.", "Say something.", "Hello!", "Tell me a story."]),
            "The user wants a sentence. I will write one.", sentences[0])


def render(arch, turns, rng):
    """Returns (prompt text, answer text) for a conversation whose last turn is answered."""
    if arch == "gpt-oss":
        text = _harmony_system(rng)
        for q, _, a in turns[:-1]:
            text += (f"<|start|>user<|message|>{q}<|end|>"
                     f"<|start|>assistant<|channel|>final<|message|>{a}<|end|>")
        q, r, a = turns[-1]
        prompt = text + f"<|start|>user<|message|>{q}<|end|><|start|>assistant"
        answer = (f"<|channel|>analysis<|message|>{r}<|end|>"
                  f"<|start|>assistant<|channel|>final<|message|>{a}<|return|>")
        return prompt, answer
    text = ""
    for q, _, a in turns[:-1]:
        text += f"<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n{a}<|im_end|>\n"
    q, r, a = turns[-1]
    prompt = text + f"<|im_start|>user\n{q}<|im_end|>\n<|im_start|>assistant\n"
    if rng.random() < 0.5:
        answer = f"<think>\n{r}\n</think>\n\n{a}<|im_end|>"
    else:  # thinking turned off: the prompt already holds the empty block
        prompt += "<think>\n\n</think>\n\n"
        answer = f"{a}<|im_end|>"
    return prompt, answer


def examples(arch, bpe, paragraphs, count, max_tokens, seed):
    """Returns count (ids, loss mask) pairs no longer than max_tokens."""
    rng = random.Random(seed)
    out = []
    too_long = 0  # in a row: a window too short for any conversation is an error, not a hang
    while len(out) < count:
        turns = [t for t in (_turn(rng.choice(paragraphs), rng) for _ in range(rng.choice([1, 1, 2])))
                 if t]
        if not turns:
            continue
        prompt, answer = render(arch, turns, rng)
        p, a = encode(bpe, prompt), encode(bpe, answer)
        if len(p) + len(a) > max_tokens:
            too_long += 1
            if too_long == 1000:
                raise ValueError(f"no chat example fits in {max_tokens} tokens: raise --seq")
            continue
        too_long = 0
        out.append((p + a, [0] * len(p) + [1] * len(a)))
    return out
