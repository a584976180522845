"""What the tests share, one module a kind. A test module imports from here or takes a fixture of a conftest.py,
never from another test module (tests/test_layers.py checks).

paths                  the repository's root and app.py
reference_libraries, open_model_references, chat_references
                       the reference libraries the engine is compared with, each imported where it is used
awkward_text, banana, byte_level_text, hf_document, wordpiece_file, class_records
                       texts, models, files and records the tests build their cases on
token_html, wcag       reading the token boxes' HTML; WCAG's contrast ratio
pages, train_page, class_page
                       Streamlit AppTest sessions, what a page shows, the steps on Train and on Class
browser, screens, browser_pages, page_tabs
                       the served app in Chromium (support.browser imports Playwright), the screen sizes and layout
                       checks, the steps on the pages, their tabs
deploy                 the deployment tests' programs, simulated students and Dockerfile

The engine's tests (tests/core) import only modules of here that need nothing beyond the engine's dependencies
on import (tests/test_engine_tests_alone.py checks).
"""
