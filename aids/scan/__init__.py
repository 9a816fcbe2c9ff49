"""Reading result slips (``aids.print.slips``) back from phone photos: ``read_slip(photo)``
gives every field's value, or says it is empty, doubly marked or unsure, with where it is on
the photo; a photo that cannot give a result is refused (``PhotoRefused``, ``scan/…``).

No Streamlit, no store: the caller checks which table and whether its slip is confirmed.
"""

from aids.scan.reader import PhotoRefused, read_slip
from aids.scan.reading import FieldReading, Mark, RowReading, SlipReading

__all__ = ["FieldReading", "Mark", "PhotoRefused", "RowReading", "SlipReading", "read_slip"]
