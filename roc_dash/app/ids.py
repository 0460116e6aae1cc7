"""Component ids, in one place so layout, callbacks and browser tests agree."""

UPLOAD = "upload"
UPLOAD_STATUS = "upload-status"
UPLOAD_ERROR = "upload-error"
DATASETS = "datasets"
DATASET_LIST = "dataset-list"
REMOVE_DATASET = "remove-dataset"  # pattern-matching type: {"type": REMOVE_DATASET, "index": id}
ROC_GRAPH = "roc-graph"
MODEL_TABLE = "model-table"
