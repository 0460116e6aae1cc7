"""Component ids, in one place so layout, callbacks, assets/roc_dash.js and tests agree."""

APP = "app-root"
UPLOAD = "upload"
UPLOAD_STATUS = "upload-status"
UPLOAD_ERROR = "upload-error"
POSITIVE_LABEL = "positive-label"
DATASETS = "datasets"
DATASET_LIST = "dataset-list"
REMOVE_DATASET = "remove-dataset"  # pattern-matching type: {"type": REMOVE_DATASET, "index": id}

COST_FP_SLIDER = "cost-fp-slider"  # log10 of the cost
COST_FP = "cost-fp"
COST_FN_SLIDER = "cost-fn-slider"
COST_FN = "cost-fn"
PRIOR_SLIDER = "prior-slider"
PRIOR = "prior"
PRIOR_RESET = "prior-reset"
PRIOR_MODE = "prior-mode"  # Store: "auto" (the data's prevalence) or "manual"
SLOPE_TEXT = "slope-text"

AVERAGING = "averaging"
LEVEL = "level"
BAND = "band"
SAMPLES = "samples"
MODELS = "models"
DET = "det"
PRESENTATION = "presentation"

ROC_GRAPH = "roc-graph"
PR_GRAPH = "pr-graph"
COST_GRAPH = "cost-graph"
OPERATING = "operating-panel"
MODEL_TABLE = "model-table"
VIZ_DATA = "viz-data"  # Store: joint hull and envelope for the clientside callbacks

PINNED = "pinned"
UNPIN = "unpin"
PIN_MODEL = "pin-model"
PIN_THRESHOLD = "pin-threshold"
PIN_BUTTON = "pin-button"

URL = "url"
URL_SYNC = "url-sync"
COPY_LINK = "copy-link"
DOWNLOAD = "download"
EXPORT_CURVES = "export-curves"
EXPORT_TABLE = "export-table"
EXPORT_HTML = "export-html"
