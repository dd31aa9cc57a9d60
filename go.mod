module github.com/robocup-dnetwork/dnetwork

go 1.26
