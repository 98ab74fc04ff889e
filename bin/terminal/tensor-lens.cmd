@echo off
rem `tensor-lens` in VS Code's integrated terminals on Windows: see the shell script beside this file.
setlocal
if "%TENSOR_LENS_NODE%"=="" set TENSOR_LENS_NODE=node
set ELECTRON_RUN_AS_NODE=1
"%TENSOR_LENS_NODE%" "%~dp0..\tensor-lens" %*
