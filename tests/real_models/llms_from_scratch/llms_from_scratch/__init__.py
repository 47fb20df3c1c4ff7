# Fusescope real-model corpus: rasbt/LLMs-from-scratch, pkg/llms_from_scratch/__init__.py at commit 28c65cdf (github.com/rasbt/LLMs-from-scratch).
# Verbatim below this header; nothing changed.
# Copyright (c) Sebastian Raschka under Apache License 2.0 (see LICENSE.txt).
# Source for "Build a Large Language Model From Scratch"
#   - https://www.manning.com/books/build-a-large-language-model-from-scratch
# Code: https://github.com/rasbt/LLMs-from-scratch