# Fusescope real-model corpus: karpathy/minGPT, mingpt/__init__.py at commit 37baab71 (github.com/karpathy/minGPT).
# Verbatim below this header; nothing changed.
