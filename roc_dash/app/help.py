"""One sentence of help per control and metric, with where it comes from (shown as tooltips)."""

HELP = {
    "economics": "Optional: what correct decisions gain, the unit of money, and how many "
                 "cases a month see the model. The iso line and cost curves then use the net "
                 "costs c(FP)+b(TN) and c(FN)+b(TP) (Fawcett 2004, §7.1).",
    "benefit": "What one correct decision of this kind gains (0 if none).",
    "unit": "Shown with every amount, e.g. € or hours.",
    "population": "Cases per month: the summary gives totals per month.",
    "upload": "One drop is one dataset (one test set): its files are read together. Datasets "
              "are never merged; CSV, TSV, semicolon-separated, gzip or Parquet.",
    "positive": "Which label value is the positive class, when the labels are not a known "
                "pair such as 0/1 or yes/no. Press Enter to re-read the rejected file.",
    "cost_fp": "What one false positive costs (any unit; only the ratio to c(FN) matters). "
               "Sets the iso-performance slope (Fawcett 2004, §7.1).",
    "cost_fn": "What one false negative costs. Sets the iso-performance slope "
               "m = c(FP)·p(−) / (c(FN)·p(+)) (Fawcett 2004, §7.1).",
    "prior": "The share of positives where the model will be used (not necessarily the test "
             "set's). Precision, expected cost and the optimum depend on it (Fawcett 2004, §3.2).",
    "prior_reset": "Use the test set's own prevalence (exact, from the chosen dataset).",
    "averaging": "How folds are combined: pooled (merged), vertical (mean TPR at fixed FPR) "
                 "or threshold averaging (mean point at fixed thresholds) (Fawcett 2004, §6).",
    "level": "Confidence level of the bands, error bars and AUC intervals.",
    "samples": "Number of FPR values (vertical) or thresholds (threshold averaging) sampled.",
    "band": "Pointwise: a t-interval at each FPR. Simultaneous: a bootstrap band covering the "
            "whole mean curve at once (Macskassy & Provost 2004).",
    "models": "Which models are drawn; the hull and the optimum are over the ticked models.",
    "det": "Draw the ROC on normal-deviate axes (DET curve, Martin et al. 1997).",
    "log_fpr": "Draw the ROC's false positive rate on a log scale: a model with AUC near 1 "
               "spreads out of the top-left corner. FPR = 0 is drawn at half the smallest "
               "FPR step (1/(2N) for N negatives); the iso line becomes a curve, moved with "
               "the cost and prior sliders.",
    "ties": "Shade the region between the optimistic and pessimistic orderings of tied "
            "scores (Fawcett 2004, §4.1, figure 6).",
    "budget": "We can act on K cases (or a % of them): the line FPR·N(1−π) + TPR·Nπ = K; the "
              "best classifier meeting it is where it crosses the hull, a random mix of two "
              "vertices (Fawcett 2004, §7.4.1). N is the cases per month when set, else the "
              "test set.",
    "repair": "Flach & Wu's repair of a model's concavities: between hull thresholds A and C, "
              "invert the decisions of B to get B′ = A + C − B (Fawcett 2004, §7.4.2).",
    "logic": "AND / OR of pins A and B (or of the optimum and pin A): the rectangles they "
             "must lie in, their positions if the two decide independently, and where they "
             "actually fall on rows both models scored (Fawcett 2004, §7.4.3).",
    "superiority": "Which model of the pair has the lower expected cost at each cost ratio "
                   "c(FN)/c(FP), and the LC index: the expert's belief in the ratio "
                   "(triangular: low, most likely, high) weighting the two sides "
                   "(Fawcett 2004, §7.5.3; Adams & Hand 1999).",
    "expert": "The expert's range and most likely value of c(FN)/c(FP); blank: half to twice "
              "the current ratio, most likely the current one (Adams & Hand 1999).",
    "pr_mode": "Precision-recall at the deployment prior (Davis & Goadrich 2006) or "
               "precision-recall-gain (Flach & Kull 2015).",
    "presentation": "Large fonts and figures for a projector.",
    "copy_link": "Copy a link that opens this view: datasets, controls and pinned points.",
    "auc": "Area under the pooled ROC curve (all folds' rows as one test set), ties counted "
           "half (Fawcett 2004, §5); interval by DeLong et al. 1988, which treats the pooled "
           "rows as one test set.",
    "pauc": "Partial AUC up to the FPR limit, standardised by McClish (1989).",
    "ap": "Average precision (step-wise, as scikit-learn), at the test set's prevalence.",
    "threshold": "The score cut-off: cases scoring at least this are flagged positive.",
    "expected_cost": "Expected cost per case: p(+)·(1−TPR)·c(FN) + p(−)·FPR·c(FP) "
                     "(Fawcett 2004, §7.1).",
    "normalized_cost": "Expected cost divided by its maximum: the height of the cost curve "
                       "(Drummond & Holte 2006).",
    "precision": "Share of flagged cases that are positive at the deployment prior: "
                 "π·TPR / (π·TPR + (1−π)·FPR) (Fawcett 2004, §3.2).",
    "tpr": "True positive rate (recall): share of positives flagged.",
    "fpr": "False positive rate: share of negatives flagged.",
    "accuracy": "Share of test cases classified correctly (at the test set's class mix).",
    "slope_ranges": "Iso-performance slopes over which one of the model's points is the "
                    "optimum of the joint hull (Provost & Fawcett 2001). The hull, "
                    "the optimum and its threshold are computed from the pooled predictions "
                    "(all folds' rows as one test set).",
    "examples": "Bundled example files of the other input kinds: a multi-class file (Fawcett "
                "2004, §7.3), soft labels (Qin's eq. 8) and a tree's leaf counts (Flach et al., "
                "§4).",
    "class_choice": "Which class is positive: the ROC, PR and cost views, the costs and the "
                    "prior then concern this class against all the others (the class "
                    "reference view, Fawcett 2004, §7.3.1).",
    "class_curves": "Each class against the rest, scored by its own column: the class "
                    "reference curves of one model (Fawcett 2004, §7.3.1).",
    "pairwise": "Â(i|j): the probability that a random row of class i scores higher on the "
                "class-i score than a random row of class j (ties one half), from those two "
                "classes' rows only (Hand & Till 2001).",
    "hand_till": "Hand & Till's M: the mean over class pairs of (Â(i|j) + Â(j|i)) / 2; "
                 "insensitive to the class mix (Hand & Till 2001, eq. 7).",
    "weighted_auc": "Provost & Domingos' AUC: the class-vs-rest AUCs weighted by the "
                    "classes' prevalence (Fawcett 2004, §7.3.2).",
    "soft": "Soft labels: each row counts p positives and 1 − p negatives (Qin, eq. 8–12); "
            "the AUC interval is Qin's generalised DeLong where it is defined.",
    "delong": "DeLong's paired test of equal AUC on the same rows (DeLong et al. 1988).",
    "pr_radio": "PR: precision against recall at the deployment prior, iso-F1 lines "
                "(Davis & Goadrich 2006). PR gain: precision gain against recall gain, where "
                "areas and the convex hull are meaningful (Flach & Kull 2015).",
    "threshold_model": "The model whose expected cost, TPR, FPR, precision and share "
                       "flagged are drawn against its threshold (Fawcett 2004, §7.1).",
    "threshold_axis": "Horizontal axis: the score threshold, or the share of cases flagged "
                      "at the deployment prior, π·TPR + (1−π)·FPR.",
    "curves_csv": "Download every shown model's ROC curve (model, fold, FPR, TPR, threshold) "
                  "as CSV (Fawcett 2004, algorithm 1): the pooled curve (fold \"pooled\": all "
                  "folds' rows as one test set) and, with two or more folds, each fold's own "
                  "curve.",
    "table_csv": "Download the model table (AUC, DeLong interval, pAUC, average precision, "
                 "optimum) as CSV, with the costs and prior on every row and, with folds, the "
                 "cross-validated AUC (fold mean, SD, LeDell interval, folds).",
    "decision_point": "Download the decision record of this point: the file holds this model "
                      "at this threshold (the vertex shown), with the intervals shown here.",
    "html_report": "Download a self-contained HTML report: the figures, the model table, the "
                   "pins and their comparison, the decision summary, the note and the saved "
                   "views.",
    "decision_json": "Download the decision record (JSON) of the recommendation, the summary's "
                     "“Use … at score ≥ …” (a pinned point only with its own button in the "
                     "operating card): model, threshold (flag iff score ≥ "
                     "threshold), costs, prior, metrics with the page's bootstrap intervals, a "
                     "fingerprint of the data. roc_dash.decision.load(path).classifier(model) deploys it; "
                     "roc-dash check --decision re-checks it on new data.",
    "demo": "Load the demo predictions: four models on the diabetes data (Efron et al. "
            "2004), ten cross-validation folds. After an upload it is added beside it "
            "(nothing is replaced); its × in the list removes it.",
    "pin": "Pin this model at this threshold (A, B or C; a fourth pin replaces the oldest). "
           "Clicking a point in any view pins it too.",
    "pin_threshold": "A score cut-off of the chosen model: cases scoring at least this are "
                     "flagged positive.",
    "pin_model": "The model to pin at the typed threshold.",
    "note": "A free-text note for this review, kept on the server with the datasets and put "
            "into the HTML report.",
    "view_name": "A name for the current controls and pins, saved with the datasets.",
    "delta_auc": "Difference of the two models' AUCs, first minus second (DeLong et al. "
                 "1988).",
    "z": "DeLong's test statistic: ΔAUC divided by its standard error from the paired "
         "structural components (DeLong et al. 1988).",
    "p_value": "Two-sided p-value of equal AUCs under DeLong's paired test (DeLong et al. "
               "1988).",
    "paired_by": "How rows of the two models were matched: by the id column, or by position "
                 "when both scored the same rows in the same order.",
    "rows": "Number of scored rows (test cases) of this model, over all folds.",
    "rows_folds": "Number of scored rows (test cases) of this model over all folds, and in "
                  "brackets the number of folds (test sets); with more than one, the curves "
                  "can be averaged and intervals come from the spread across folds (Fawcett "
                  "2004, §6).",
    "folds": "Number of folds (test sets) of this model; with more than one, the curves can "
             "be averaged and intervals come from the spread across folds (Fawcett 2004, §6).",
    "model": "The model's name (the model column of the predictions file); with more than "
             "one dataset loaded, followed by its dataset's name.",
    "dataset": "The dataset (upload, one test set) the model was evaluated on.",
    "models_pair": "The two models compared.",
    "sup_pair": "The two shown models compared at every cost ratio (Fawcett 2004, §7.5.3).",
    "prior_source": "Whose prevalence \"Use the data's prevalence\" takes, when several "
                    "datasets are loaded. A dataset added later does not change it; the "
                    "link keeps it.",
    "upload_cancel": "Stop sending the files: nothing is changed.",
    "pi_npv": "Negative predictive value at the deployment prior: share of the cases not "
              "flagged that are negative.",
    "pi_lr_pos": "Positive likelihood ratio TPR/FPR: how much a flag multiplies the odds "
                 "of being positive.",
    "pi_lr_neg": "Negative likelihood ratio (1−TPR)/(1−FPR): how much no flag multiplies the "
                 "odds of being positive.",
    "pi_head": "Stratified bootstrap: the positives and the negatives are redrawn with "
               "replacement; at the optimum the choice is made again in every replicate, at "
               "a pin the threshold stays. At the optimum each interval but the "
               "threshold's is of what the chosen threshold gives on new data: its estimate "
               "corrected for the optimism of choosing it on these data (out of bag), ± the "
               "bootstrap spread. Seeded: the same data give the same intervals.",
    "pi_oob": "What the choice of the optimum really costs: each bootstrap replicate picks "
              "its own optimum and is charged on the cases it did not draw (out of bag). "
              "The expected cost at the optimum is measured on the same data that chose it, "
              "so it is optimistic; its interval is corrected for that (docs/statistics.md "
              "gives its measured coverage); in brackets, the out-of-bag minus the in-bag "
              "cost: the optimism of the choice.",
    "cv_auc": "Cross-validated AUC: each fold's own AUC averaged (not the pooled AUC, which "
              "treats all folds' rows as one test set), ± the SD over folds, and the "
              "confidence interval of the mean by the influence-curve method of LeDell, "
              "Petersen & van der Laan (2015). Open it for each fold's AUC and average "
              "precision.",
    "cv_auc_none": "No cross-validated AUC: the model has fewer than two folds holding both "
                   "classes (or soft labels).",
    "model_comparison": "Every pair of the shown models: the difference of their AUCs (row "
                        "minus column, pooled predictions) by DeLong's paired test (DeLong et "
                        "al. 1988), with p-values adjusted for the number of pairs tested "
                        "(Holm 1979; Benjamini & Hochberg 1995), and the costs under which "
                        "each model is the best choice (Fawcett 2004, §7.1).",
    "p_kind": "Which p-value the matrix shows: raw (one pair on its own), Holm-adjusted "
              "(controls the chance of any false difference) or Benjamini-Hochberg-adjusted "
              "(controls the share of false differences among those found).",
    "optimal_cost_range": "The ratios c(FN)/c(FP) at the current prior over which one of the "
                          "model's thresholds is on the joint convex hull, i.e. is the "
                          "minimum-cost choice among all shown models (Fawcett 2004, §7.1). "
                          "A model never on the hull is never optimal. Two models with "
                          "the same ROC points (one a monotone recalibration of the "
                          "other) tie: both are optimal, at the same cost.",
    "source_choice": "Predictions kept on this server (listed by whoever runs it in "
                     "ROC_DASH_SOURCES): a folder of Parquet or CSV files, a pattern, or a "
                     "table of a DuckDB database.",
    "source_open": "Read the chosen source where it lies: DuckDB counts its rows per model, "
                   "fold, score and label, and only those counts are loaded, as a new dataset "
                   "beside the ones you have.",
    "cmp_measure": "What the matrix compares: the AUC, by DeLong's paired test, or the "
                   "McClish-standardised partial AUC over FPR ≤ the limit of the model table's "
                   "pAUC column, by a paired stratified bootstrap (computed when chosen).",
}
