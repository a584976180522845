"""What the tests share, one module a kind; a test module imports from here (or takes a fixture of a conftest.py),
never from another test module (tests/test_layers.py checks).

paths             the repository's root and app.py (standard library only)
reference_libraries, open_model_references, chat_references
                  the reference libraries the engine is compared with, each imported where it is used
awkward_text, byte_level_text, hf_document, wordpiece_file
                  texts and files the tests build their cases on
token_html, wcag  reading the token boxes' HTML; WCAG's contrast ratio
pages, class_page Streamlit AppTest sessions and the steps on Train, Encode and Class
browser, screens, browser_pages, page_tabs
                  the served app in Chromium (imports Playwright), the screen sizes and layout checks, the steps on
                  the pages, their tabs
deploy            the deployment tests' programs, students and Dockerfile
class_records     small hand-made records of the live class
"""
