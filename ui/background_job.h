#pragma once
// What the window's background jobs share (loading a rank, analysing a cluster): the work runs on a
// worker thread with a cancel flag; starting again cancels the running job and drops its result (a
// generation number tells stale deliveries apart); results and progress reach the owner on the GUI
// thread. Included only by the jobs' .cpp files.
#include <QFutureWatcher>
#include <QMetaObject>
#include <QObject>
#include <QPointer>
#include <QtConcurrent/QtConcurrentRun>

#include <atomic>
#include <memory>

namespace bs::ui {

template <class Outcome> class BackgroundRunner {
  public:
    // Delivers `f()` on the owner's (GUI) thread unless the owner is gone or a newer job started.
    struct Poster {
        QPointer<QObject> owner;
        const BackgroundRunner* runner;
        quint64 generation;
        template <class F> void operator()(F f) const {
            if (!owner) return;
            QMetaObject::invokeMethod(
                owner.data(),
                [o = owner, r = runner, g = generation, f] {
                    if (o && r->generation_ == g) f();
                },
                Qt::QueuedConnection);
        }
    };

    explicit BackgroundRunner(QObject* owner) : owner_(owner) {}
    ~BackgroundRunner() {
        cancel();
        if (watcher_) watcher_->waitForFinished();
    }
    BackgroundRunner(const BackgroundRunner&) = delete;
    BackgroundRunner& operator=(const BackgroundRunner&) = delete;

    bool isRunning() const { return watcher_ && watcher_->isRunning(); }
    void cancel() {
        if (flag_) flag_->store(true);
    }
    // Runs `work(const std::atomic<bool>& cancelled, const Poster& post) -> Outcome` on a worker thread;
    // `done(const Outcome&)` runs on the GUI thread when it ends, unless a newer job started meanwhile.
    template <class Work, class Done> void start(Work work, Done done) {
        cancel();
        if (watcher_) {
            QObject::disconnect(watcher_, nullptr, owner_, nullptr);
            watcher_->deleteLater(); // the stale job finishes in the background; its result is dropped
        }
        auto flag = std::make_shared<std::atomic<bool>>(false);
        flag_ = flag;
        const quint64 gen = ++generation_;
        const Poster post{QPointer<QObject>(owner_), this, gen};
        watcher_ = new QFutureWatcher<Outcome>(owner_);
        QFutureWatcher<Outcome>* w = watcher_;
        QObject::connect(w, &QFutureWatcher<Outcome>::finished, owner_, [this, w, gen, done] {
            if (gen == generation_) done(w->result());
        });
        watcher_->setFuture(QtConcurrent::run([flag, post, work]() -> Outcome { return work(*flag, post); }));
    }

  private:
    QObject* owner_;
    std::shared_ptr<std::atomic<bool>> flag_;
    QFutureWatcher<Outcome>* watcher_ = nullptr;
    quint64 generation_ = 0;
};

} // namespace bs::ui
