"""What pages share on the session and server side: the session's state, the model and upload stores, uploads
and model files, a page's choices and its address, the share link, training settings, presentation mode and the
page registry. The modules that talk to Streamlit are listed in ``tests/test_layers.py``."""
