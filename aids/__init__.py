"""Race-night table aids: rules engines, a Streamlit tracker and printed aids."""

__version__ = "0.1.0"
