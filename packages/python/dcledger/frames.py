"""Optional pandas helpers: the same calls, answered as DataFrames.

pandas is imported only when a helper runs, so the client itself needs nothing beyond the
standard library; without pandas the helpers raise ``PandasMissingError`` saying how to get it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Union

from ._errors import PandasMissingError
from .models import Model

if TYPE_CHECKING:  # pragma: no cover
    import pandas

    from .client import Client

#: Trade columns holding dates, converted to pandas datetimes.
DATE_COLUMNS = ("transaction_date", "disclosure_date", "option_expiry", "updated_at")


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as error:
        raise PandasMissingError(
            "the DataFrame helpers need pandas, which is not installed: "
            "`pip install pandas` (or Debian's `apt install python3-pandas`); "
            "the rest of the dcledger client works without it"
        ) from error
    return pandas


def to_frame(records: Iterable[Union[Model, dict]]) -> "pandas.DataFrame":
    """A DataFrame of models or plain rows, one column per field; known date columns as datetimes."""
    pandas = _pandas()
    rows = [record.to_dict() if isinstance(record, Model) else dict(record) for record in records]
    frame = pandas.DataFrame.from_records(rows)
    for column in DATE_COLUMNS:
        if column in frame.columns:
            frame[column] = pandas.to_datetime(frame[column], errors="coerce", utc=column == "updated_at")
    return frame


def trades_frame(client: "Client", *, page_size: int = 500, **filters: Any) -> "pandas.DataFrame":
    """Every trade the filters select (all pages), as a DataFrame indexed by trade id."""
    _pandas()  # fail before any request is paid for
    frame = to_frame(client.iter_trades(page_size=page_size, **filters))
    return frame.set_index("id") if "id" in frame.columns else frame


def politicians_frame(client: "Client", *, page_size: int = 500, **filters: Any) -> "pandas.DataFrame":
    """Every member or filer the filters select, as a DataFrame indexed by politician_id."""
    _pandas()
    frame = to_frame(client.iter_politicians(page_size=page_size, **filters))
    return frame.set_index("politician_id") if "politician_id" in frame.columns else frame


def bulk_trades_frame(client: "Client") -> "pandas.DataFrame":
    """The whole trade history (``GET /bulk/trades``) as a DataFrame indexed by trade id."""
    _pandas()
    frame = to_frame(client.bulk_trades())
    return frame.set_index("id") if "id" in frame.columns else frame
