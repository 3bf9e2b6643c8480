"""Real architectures as their libraries build them: transformers, timm and
torchvision models at small configurations with random weights (no
downloads), imported unmodified. The catalogue of issue 28's zoo test and of
bench/zoo_cpu.py; same layout as zoo.MODELS:

  MODELS[name] = (factory, example_inputs, dynamic_shapes)

Configurations shrink widths and depths, never the layer kinds: every model
keeps its embeddings, mask builders, attention implementation (transformers'
default, F.scaled_dot_product_attention), norms, convolutions and pooling
heads. Language models are built with use_cache=False: a forward pass with a
key/value cache returns the cache object, which torch.export cannot
flatten, and a cache belongs to generation, not to one forward pass.
Each model is checked against itself in float64 (TOLERANCES).
"""
import torch

from .zoo import _seeded

_TOKENS = dict(batch=2, length=16, vocab=100)
_LM = dict(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, intermediate_size=128)


def _tokens():
    g = torch.Generator().manual_seed(3)
    return (torch.randint(0, _TOKENS["vocab"], (_TOKENS["batch"], _TOKENS["length"]),
                          generator=g),)


def _image(size=32):
    g = torch.Generator().manual_seed(3)
    return (torch.randn(2, 3, size, size, generator=g),)


def _hf(config, model, **kw):
    import transformers
    return getattr(transformers, model)(getattr(transformers, config)(**kw))


def gpt2():
    return _hf("GPT2Config", "GPT2Model", n_embd=64, n_layer=2, n_head=4, n_positions=64,
               vocab_size=_TOKENS["vocab"], use_cache=False)


def llama():
    return _hf("LlamaConfig", "LlamaModel", vocab_size=_TOKENS["vocab"], num_key_value_heads=2,
               max_position_embeddings=64, use_cache=False, **_LM)


def mistral():
    # A sliding window shorter than the sequence: the mask builder's band.
    return _hf("MistralConfig", "MistralModel", vocab_size=_TOKENS["vocab"],
               num_key_value_heads=2, max_position_embeddings=64, sliding_window=8,
               use_cache=False, **_LM)


def bert():
    return _hf("BertConfig", "BertModel", vocab_size=_TOKENS["vocab"],
               max_position_embeddings=64, **_LM)


def t5_encoder():
    return _hf("T5Config", "T5EncoderModel", vocab_size=_TOKENS["vocab"], d_model=64, d_kv=16,
               d_ff=128, num_layers=2, num_heads=4)


def hf_vit():
    return _hf("ViTConfig", "ViTModel", image_size=32, patch_size=8, **_LM)


def timm_vit_tiny():
    import timm
    return timm.create_model("vit_tiny_patch16_224", pretrained=False, img_size=32,
                             patch_size=8, depth=2)


def timm_convnext_tiny():
    import timm
    return timm.create_model("convnext_tiny", pretrained=False, depths=(1, 1, 1, 1),
                             dims=(16, 32, 64, 128), num_classes=10)


def timm_mixer():
    from timm.models.mlp_mixer import MlpMixer
    # No classifier: timm initializes Mixer's head to zeros, and a result of
    # zeros tests nothing. The pooled features are the model's last values.
    return MlpMixer(num_classes=0, img_size=32, patch_size=8, num_blocks=2, embed_dim=64)


def torchvision_resnet18():
    import torchvision
    return torchvision.models.resnet18(num_classes=10)


class LlamaBlockSDPA(torch.nn.Module):
    """A Llama decoder block as a user writes it: RMSNorm, grouped-query
    F.scaled_dot_product_attention (causal, enable_gqa), SwiGLU, residuals."""

    def __init__(self, d=64, heads=4, kv_heads=2, hidden=128):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, d // heads
        lin = lambda i, o: torch.nn.Linear(i, o, bias=False)
        self.q, self.k, self.v, self.o = (lin(d, d), lin(d, kv_heads * self.head_dim),
                                          lin(d, kv_heads * self.head_dim), lin(d, d))
        self.norm1, self.norm2 = torch.nn.RMSNorm(d), torch.nn.RMSNorm(d)
        self.gate, self.up, self.down = lin(d, hidden), lin(d, hidden), lin(hidden, d)

    def forward(self, x):
        b, t, d = x.shape
        y = self.norm1(x)
        q = self.q(y).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(y).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v(y).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        a = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=True,
                                                             enable_gqa=True)
        x = x + self.o(a.transpose(1, 2).reshape(b, t, d))
        y = self.norm2(x)
        return x + self.down(torch.nn.functional.silu(self.gate(y)) * self.up(y))


def _hidden():
    return (torch.randn(2, 16, 64, generator=torch.Generator().manual_seed(3)),)


MODELS = {
    "gpt2": (_seeded(gpt2), _tokens, None),
    "llama": (_seeded(llama), _tokens, None),
    "mistral": (_seeded(mistral), _tokens, None),
    "bert": (_seeded(bert), _tokens, None),
    "t5_encoder": (_seeded(t5_encoder), _tokens, None),
    "hf_vit": (_seeded(hf_vit), _image, None),
    "timm_vit_tiny": (_seeded(timm_vit_tiny), _image, None),
    "timm_convnext_tiny": (_seeded(timm_convnext_tiny), _image, None),
    "timm_mixer": (_seeded(timm_mixer), _image, None),
    "torchvision_resnet18": (_seeded(torchvision_resnet18), _image, None),
    "llama_block_sdpa": (_seeded(LlamaBlockSDPA), _hidden, None),
}

TOLERANCES = {name: "float64" for name in MODELS}
