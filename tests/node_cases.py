"""Run a browser function of the page in Node over a list of cases (the tests of clientside
callbacks that need no page): the function's source, a driver that loads it and calls it on
each case, and the cases as JSON, each in a file; what the driver prints, parsed."""

import json
import subprocess


def run_cases(tmp_path, node: str, function: str, driver: str, cases):
    (tmp_path / "function.js").write_text(function)
    (tmp_path / "cases.json").write_text(json.dumps(cases))
    (tmp_path / "driver.js").write_text(driver)
    done = subprocess.run([node, str(tmp_path / "driver.js"), str(tmp_path / "function.js"),
                           str(tmp_path / "cases.json")], capture_output=True, text=True,
                          timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
