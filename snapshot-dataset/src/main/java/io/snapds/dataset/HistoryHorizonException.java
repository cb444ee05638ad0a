package io.snapds.dataset;

/**
 * What was asked for is older than the dataset's history horizon ({@code history.retain.last},
 * {@code history.retain.max.age}): cleanup deleted its metadata. Ask for something newer, or
 * create the dataset with a longer horizon.
 */
public class HistoryHorizonException extends SnapshotNotAvailableException {
  public HistoryHorizonException(DatasetId dataset, String what) {
    super(dataset, what + " is older than the history horizon of dataset " + dataset
        + " (its metadata was deleted; see history.retain.last / history.retain.max.age)");
  }
}
