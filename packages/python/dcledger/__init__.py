"""dcledger: a Python client for the dcledger API (US congressional and executive-branch stock-trade
disclosures). Standard library only; pandas is optional (``dcledger.frames``).

    from dcledger import Client
    client = Client("http://localhost:8080", api_key="dc_...")
    for trade in client.iter_trades(ticker="NVDA", days=365):
        print(trade.transaction_date, trade.politician_name, trade.trade_type, trade.amount_range)
"""

__version__ = "0.1.0"

from ._errors import DcLedgerError, PandasMissingError  # noqa: E402
from .client import BulkTrades, Client, Response, next_page, retry_after_seconds  # noqa: E402
from .models import Politician, Subscription, Trade, WebhookEvent  # noqa: E402
from .webhooks import WebhookVerificationError, verify, verify_standard  # noqa: E402

__all__ = [
    "BulkTrades",
    "Client",
    "DcLedgerError",
    "PandasMissingError",
    "Politician",
    "Response",
    "Subscription",
    "Trade",
    "WebhookEvent",
    "WebhookVerificationError",
    "next_page",
    "retry_after_seconds",
    "verify",
    "verify_standard",
    "__version__",
]
