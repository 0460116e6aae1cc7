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
ROC_HINT = "roc-hint"  # what a gesture on the ROC does ("drag the red line ..." on ROC axes)
PR_GRAPH = "pr-graph"
COST_GRAPH = "cost-graph"
OPERATING = "operating-panel"
MODEL_TABLE = "model-table"
VIZ_DATA = "viz-data"  # Store: joint hull and envelope for the clientside callbacks

PINNED = "pinned"
UNPIN = "unpin"
PIN_MODEL = "pin-model"
PIN_THRESHOLD = "pin-threshold"
PIN_MSG = "pin-message"  # why a typed pin was refused
PIN_BUTTON = "pin-button"

URL = "url"
URL_SYNC = "url-sync"
COPY_LINK = "copy-link"
DOWNLOAD = "download"
EXPORT_CURVES = "export-curves"
EXPORT_TABLE = "export-table"
EXPORT_HTML = "export-html"

# steppers of the exact-value inputs, the exact conditions and their messages
COST_FP_DOWN, COST_FP_UP = "cost-fp-down", "cost-fp-up"
COST_FN_DOWN, COST_FN_UP = "cost-fn-down", "cost-fn-up"
PRIOR_DOWN, PRIOR_UP = "prior-down", "prior-up"
PRIOR_SOURCE = "prior-source"  # which dataset's prevalence is "the data's prevalence"
PRIOR_SOURCE_ROW = "prior-source-row"
CONDITIONS = "conditions"  # Store: exact costs and prior (inputs show them rounded)
CONTROL_MSG = "control-message"
SAMPLES_MSG = "samples-message"
SAMPLES_OK = "samples-ok"  # Store: the last number of samples in use

PENDING = "pending-upload"  # Store: token of a rejected upload kept for a retry
LOAD_DEMO = "load-demo"
BANNER = "banner"  # notes on what is shown: missing datasets, several test sets, inverted scores
MISSING = "missing-banner"  # datasets named by a link that are no longer on the server
LINE_DRAG = "line-drag"  # Store: the shapes[0] keys of a drag of the iso line (browser-filtered)
ZOOM = "zoom"  # Store: axis ranges the user zoomed each view to
CLICK = "click"  # Store: a click on a view that was not part of a double click (to pin)
UPLOAD_INPUT = "upload-input"  # the file chooser inside the drop zone
UPLOAD_PROGRESS = "upload-progress"
UPLOAD_DONE = "upload-done"  # Store: written when the server has answered a drop
UPLOAD_CANCEL = "upload-cancel"
STREAMED = "streamed-upload"  # Store: {"batch": token, "stamp"} of files streamed to /upload
UPDATE_FAILED = "update-failed"  # shown by assets/roc_dash.js when an update failed
ROC_TIES = "roc-ties"  # Checklist: shade the tie bounds of each curve
# combining classifiers and the LC index (Fawcett 2004 s7.4, s7.5.3; app/features/combining.py)
BUDGET = "budget"  # text: K cases, or % flagged (BUDGET_UNIT)
BUDGET_UNIT = "budget-unit"  # RadioItems: "cases" or "percent"
REPAIR_MODEL = "repair-model"  # Dropdown: the model whose concavities are repaired
LOGIC = "logic"  # Checklist: AND/OR of two operating points on the ROC
COMBINE = "combine"  # Store: the validated combining options (read by the views)
COMBINE_RESULT = "combine-result"  # text: budget, repair and AND/OR read-outs
SUP_A, SUP_B = "sup-a", "sup-b"  # Dropdowns: the pair of the relative superiority view
SUP_LOW, SUP_MODE, SUP_HIGH = "sup-low", "sup-mode", "sup-high"  # expert's cost ratios
SUP_GRAPH = "sup-graph"
SUP_MSG = "sup-message"
PR_MODE = "pr-mode"  # RadioItems: "pr" or "prg" (precision-recall-gain)
COPY_STATUS = "copy-status"  # "Link copied" confirmation next to the Copy link button
UNPIN_ONE = "unpin-one"  # pattern-matching type: {"type": UNPIN_ONE, "index": "A"}
SIDEBAR_TOGGLE = "sidebar-toggle"  # shows the folded sidebar in presentation mode
NOTE = "note"  # Textarea: a free-text note kept on the server with the datasets
NOTE_STATUS = "note-status"
VIEW_NAME = "view-name"
SAVE_VIEW = "save-view"
VIEW_LIST = "view-list"
VIEWS = "views-data"  # Store: the saved views of the current datasets
OPEN_VIEW = "open-view"  # pattern-matching type: {"type": OPEN_VIEW, "index": name}
DELETE_VIEW = "delete-view"
BENEFIT_TP = "benefit-tp"
BENEFIT_TN = "benefit-tn"
UNIT = "unit"
POPULATION = "population"
SUMMARY = "decision-summary"  # the one-line decision under the top bar
THRESHOLD_GRAPH = "threshold-graph"  # cost and rates against the threshold
THRESHOLD_MODEL = "threshold-model"
THRESHOLD_AXIS = "threshold-axis"  # "threshold" or "flagged"
LOAD_EXAMPLE = "load-example"  # pattern-matching type: {"type": LOAD_EXAMPLE, "index": id}
CLASS_ROW = "class-row"  # shown when multi-class data is loaded
CLASS_CHOICE = "class-choice"  # Dropdown: the positive class of multi-class data
MC_CARD = "mc-card"  # the multi-class card
MC_MODEL = "mc-model"  # Dropdown: the model whose classes the card shows
MC_CURVES = "mc-curves"  # class reference curves of that model
MC_PAIRWISE = "mc-pairwise"  # Hand & Till's pairwise AUC matrix as a heat map
MC_SUMMARY = "mc-summary"
